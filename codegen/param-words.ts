/**
 * The words an invalid-params message uses for "what belongs here", at every place a validator can fail: a
 * schema outline (properties, items, branches, component references) whose nodes carry one phrase each. The
 * registry walks it along ajv's instancePath, so a bad `gas` inside a call object is explained as a quantity,
 * not as "a message call".
 */
import { componentOf, type JsonSchema, type Model, type ParamModel } from './document.js';

/** e: the phrase; p: properties; i: array items; b: oneOf/anyOf/allOf branches; r: a component's key. */
export interface WordsNode {
  e?: string;
  p?: Record<string, WordsNode>;
  i?: WordsNode;
  b?: WordsNode[];
  r?: string;
}

/**
 * A description as a phrase that reads inside "must be …": its first sentence, without markdown backticks or the
 * final full stop, lower-case unless it starts with an acronym (EIP-1898, MCP).
 */
export function phrase(description: unknown): string | undefined {
  if (typeof description !== 'string' || !description.trim()) return undefined;
  const text = description.trim().replace(/`/g, '');
  const end = /\.(\s+[A-Z0-9(]|$)/.exec(text);
  const first = (end ? text.slice(0, end.index) : text).trim();
  return /^[A-Z][a-z]*\b/.test(first) ? first[0]!.toLowerCase() + first.slice(1) : first;
}

/** A last resort when nobody wrote a description: the shape, named by component titles. */
export function describeSchema(schema: JsonSchema, schemas: Record<string, JsonSchema>): string {
  const component = componentOf(schema);
  if (component === 'notFound') return 'null';
  if (component !== undefined) return phrase(schemas[component]?.description) ?? component;
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches)) return branches.map((b) => describeSchema(b as JsonSchema, schemas)).join(' or ');
  }
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (schema.type === 'array') {
    const items = schema.items;
    return items && typeof items === 'object' && !Array.isArray(items)
      ? `an array, each ${describeSchema(items as JsonSchema, schemas)}`
      : 'an array';
  }
  if (schema.type === 'null') return 'null';
  if (typeof schema.type === 'string')
    return schema.type === 'object' || schema.type === 'array' || schema.type === 'integer'
      ? `an ${schema.type}`
      : `a ${schema.type}`;
  return 'any JSON value';
}

/** The outline of one schema; components stay references (`r`) into the shared table. */
export function wordsOf(schema: JsonSchema, schemas: Record<string, JsonSchema>, own?: string): WordsNode {
  const component = componentOf(schema);
  if (component !== undefined) return own === undefined ? { r: component } : { e: own, r: component };
  const node: WordsNode = { e: own ?? phrase(schema.description) ?? describeSchema(schema, schemas) };
  const properties = schema.properties;
  if (properties && typeof properties === 'object') {
    node.p = {};
    for (const [key, sub] of Object.entries(properties as Record<string, JsonSchema>)) {
      node.p[key] = wordsOf(sub, schemas);
    }
  }
  const items = schema.items;
  if (items && typeof items === 'object' && !Array.isArray(items)) node.i = wordsOf(items as JsonSchema, schemas);
  const branches = ['oneOf', 'anyOf', 'allOf'].flatMap((k) =>
    Array.isArray(schema[k]) ? (schema[k] as unknown[]) : [],
  );
  if (branches.length > 0) node.b = branches.map((b) => wordsOf(b as JsonSchema, schemas));
  return node;
}

/** Every component a param can reach, outlined once. */
export function componentWords(model: Model): Record<string, WordsNode> {
  const schemas = model.doc.components?.schemas ?? {};
  const table: Record<string, WordsNode> = {};
  const visit = (node: WordsNode): void => {
    if (node.r !== undefined && !(node.r in table)) {
      const schema = schemas[node.r]!;
      const outline = wordsOf({ ...schema, title: undefined }, schemas);
      table[node.r] = outline;
      visit(outline);
    }
    for (const child of [...Object.values(node.p ?? {}), ...(node.i ? [node.i] : []), ...(node.b ?? [])]) visit(child);
  };
  for (const method of model.methods) for (const param of method.params) visit(paramWords(param, model));
  return Object.fromEntries(Object.entries(table).sort(([a], [b]) => a.localeCompare(b)));
}

/** The outline of a param, its root phrase from the param schema, its component or the param's description. */
export function paramWords(param: ParamModel, model: Model): WordsNode {
  const schemas = model.doc.components?.schemas ?? {};
  const component = componentOf(param.schema);
  const said = phrase(param.description);
  const branched = ['oneOf', 'anyOf'].some((k) => Array.isArray(param.schema[k]));
  // A component says what its values look like; an inline one-type schema says only "a string", so the param's
  // own description follows in parentheses; inline alternatives are best told by the param's description.
  const own =
    phrase(param.schema.description) ??
    (component === undefined ? undefined : phrase(schemas[component]?.description)) ??
    (branched && said !== undefined ? said : undefined) ??
    (said === undefined ? undefined : `${describeSchema(param.schema, schemas)} (${said})`);
  return wordsOf(param.schema, schemas, own);
}

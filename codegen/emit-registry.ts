/** registry.ts: the method table the server dispatches from (contract in ARCHITECTURE.md). */
import { NAMESPACES, type MethodModel, type Model } from './document.js';
import { propertyKey, quote } from './naming.js';
import { componentWords, describeSchema, paramWords } from './param-words.js';

export function emitRegistry(model: Model, header: string): string {
  return `${header}
import * as validators from './validators.js';
import type { ValidationError, Validator } from './validators.js';

export type Namespace = ${NAMESPACES.map(quote).join(' | ')};
export const namespaces: readonly Namespace[] = [${NAMESPACES.map(quote).join(', ')}];

export type MethodName =
${model.methods.map((m) => `  | ${quote(m.name)}`).join('\n')};

/** Why a param was refused, in parts the JSON-RPC layer turns into one sentence (and \`error.data\`). */
export interface ParamProblem {
  /** Where inside the param, as ajv's instancePath: '' for the param itself, '/gas', '/accessList/0/address'. */
  readonly path: string;
  /** The ajv keyword that failed (oneOf/anyOf when no alternative fits). */
  readonly keyword: string;
  /** What belongs at \`path\`, in words from the schema's descriptions. */
  readonly expects: string;
  /** The value found at \`path\` (undefined for a missing field). */
  readonly value: unknown;
  /** required: the missing field; additionalProperties: the unknown one. */
  readonly field?: string;
  /** additionalProperties: the fields the object may have. */
  readonly knownFields?: readonly string[];
  /** The bound of minItems/maxItems/minimum/maximum/minLength/maxLength. */
  readonly limit?: number;
  /** A decimal number where a hex quantity belongs: the same number in hex. */
  readonly hex?: string;
  /** A hex quantity with leading zeros (0x01) where they are refused: the same number without them. */
  readonly unpadded?: string;
}

export interface ParamSpec {
  /** The OpenRPC param name. */
  readonly name: string;
  readonly required: boolean;
  /** Human text for errors and docs: what a valid value looks like. */
  readonly expects: string;
  /** undefined when valid; otherwise why not, located and worded from the schema. */
  readonly check: (value: unknown) => ParamProblem | undefined;
}

export interface MethodSpec {
  readonly name: MethodName;
  readonly namespace: Namespace;
  readonly params: readonly ParamSpec[];
  /** Count of leading required params; trailing optional ones may be omitted. */
  readonly requiredParams: number;
  readonly checkResult: (value: unknown) => string | undefined;
  /** From x-unavailable: answer -32004 without calling a handler. */
  readonly unavailable?: string;
  /** From x-transport. */
  readonly transport: 'any' | 'ws';
}

interface Words {
  readonly e?: string;
  readonly p?: { readonly [field: string]: Words };
  readonly i?: Words;
  readonly b?: readonly Words[];
  readonly r?: string;
}

const words: { readonly [component: string]: Words } = ${JSON.stringify(componentWords(model))};

const deref = (node: Words): Words => (node.r === undefined ? node : deref(words[node.r]!));

/** The outline node at one step of a path, trying every branch of a oneOf/anyOf. */
function stepInto(node: Words, key: string): Words | undefined {
  const resolved = deref(node);
  const property = resolved.p && Object.hasOwn(resolved.p, key) ? resolved.p[key] : undefined;
  if (property) return property;
  if (resolved.i && /^[0-9]+$/.test(key)) return resolved.i;
  for (const branch of resolved.b ?? []) {
    const found = stepInto(branch, key);
    if (found) return found;
  }
  return undefined;
}

const phraseOf = (node: Words): string => node.e ?? phraseOf(words[node.r!]!);

/** Every field any branch of an object outline names. */
function fieldsOf(node: Words): string[] {
  const resolved = deref(node);
  return [...Object.keys(resolved.p ?? {}), ...(resolved.b ?? []).flatMap(fieldsOf)];
}

const pathKeys = (path: string): string[] =>
  path === '' ? [] : path.slice(1).split('/').map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));

function valueAt(root: unknown, keys: readonly string[]): unknown {
  let value = root;
  for (const key of keys) {
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

/** Keywords whose failure says only "not this shape": the phrase for the place explains them all. */
const GENERIC_KEYWORDS = new Set([
  'type', 'oneOf', 'anyOf', 'allOf', 'not', 'pattern', 'enum', 'const', 'format', 'if',
]);

const depth = (path: string): number => (path === '' ? 0 : path.split('/').length - 1);

function paramChecker(validate: Validator, outline: Words): (value: unknown) => ParamProblem | undefined {
  return (value) => {
    if (validate(value)) return undefined;
    const errors = validate.errors ?? [];
    // ajv stops at the first failure, but a failed oneOf/anyOf first lists each branch's failure: the deepest
    // place any branch reached is where the value went wrong (a bad field of the right object).
    let chosen = errors[0];
    for (const error of errors) if (depth(error.instancePath) > depth(chosen?.instancePath ?? '')) chosen = error;
    if (!chosen) return { path: '', keyword: 'invalid', expects: phraseOf(outline), value };
    const path = chosen.instancePath;
    const keys = pathKeys(path);
    let node: Words | undefined = outline;
    for (const key of keys) node = node === undefined ? undefined : stepInto(node, key);
    let branched = errors.some((e) => e.instancePath === path && (e.keyword === 'oneOf' || e.keyword === 'anyOf'));
    // One alternative took the value's type and failed only a bound or a field rule (topics with 5 positions,
    // count 0): that alternative was meant, so its rule is the one to explain.
    const meant = errors.filter((e) => e.instancePath === path && !GENERIC_KEYWORDS.has(e.keyword));
    if (branched && meant.length === 1) {
      chosen = meant[0]!;
      branched = false;
    }
    const found = valueAt(value, keys);
    const problem: { -readonly [K in keyof ParamProblem]: ParamProblem[K] } = {
      path,
      keyword: branched ? 'oneOf' : chosen.keyword,
      expects: node === undefined ? phraseOf(outline) : phraseOf(node),
      value: found,
    };
    const p = chosen.params;
    if (!branched && chosen.keyword === 'required') problem.field = String(p.missingProperty);
    if (!branched && chosen.keyword === 'additionalProperties') {
      problem.field = String(p.additionalProperty);
      if (node) problem.knownFields = [...new Set(fieldsOf(node))];
    }
    if (!branched && typeof p.limit === 'number') problem.limit = p.limit;
    const hex = decimalAsHex(validate, value, keys, path);
    if (hex !== undefined) problem.hex = hex;
    if (typeof found === 'string' && /^0x0+[0-9a-fA-F]/.test(found)) {
      const unpadded = \`0x\${found.slice(2).replace(/^0+/, '')}\`;
      if (acceptedAt(validate, value, keys, path, unpadded)) problem.unpadded = unpadded;
    }
    return problem;
  };
}

function checker(validate: Validator): (value: unknown) => string | undefined {
  return (value) => {
    if (validate(value)) return undefined;
    const first = (validate.errors ?? [])[0];
    if (first === undefined) return 'is invalid';
    return \`\${first.instancePath || '(root)'}: \${first.message ?? first.keyword}\`;
  };
}

/**
 * A JSON number or a decimal string where hex is expected is the commonest client mistake (chainId: 61): when the
 * same number written as a hex quantity would be accepted at that place and its decimal digits would not (so the
 * place wants hex, not any string), the hex form.
 */
function decimalAsHex(validate: Validator, root: unknown, keys: readonly string[], path: string): string | undefined {
  const value = valueAt(root, keys);
  const decimal =
    typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
      ? BigInt(value)
      : typeof value === 'string' && /^(0|[1-9][0-9]*)$/.test(value)
        ? BigInt(value)
        : undefined;
  if (decimal === undefined) return undefined;
  const hex = \`0x\${decimal.toString(16)}\`;
  const accepted = (replacement: string) => acceptedAt(validate, root, keys, path, replacement);
  return accepted(hex) && !accepted(decimal.toString()) ? hex : undefined;
}

/** Whether \`replacement\` put at \`path\` would pass there (the rest of the value may still fail elsewhere). */
function acceptedAt(
  validate: Validator,
  root: unknown,
  keys: readonly string[],
  path: string,
  replacement: string,
): boolean {
  let fixed: unknown = replacement;
  if (keys.length > 0) {
    fixed = structuredClone(root);
    let parent = fixed as Record<string, unknown>;
    for (const key of keys.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
    parent[keys[keys.length - 1]!] = replacement;
  }
  return validate(fixed) || !(validate.errors ?? []).some((e) => e.instancePath === path);
}

export const methods: { readonly [K in MethodName]: MethodSpec } = {
${model.methods.map((m) => methodEntry(m, model)).join('\n')}
};

// A Map, not the object: a lookup must never find inherited keys such as \`toString\` or \`__proto__\`.
const methodsByName: ReadonlyMap<string, MethodSpec> = new Map(Object.entries(methods));

export function findMethod(name: string): MethodSpec | undefined {
  return methodsByName.get(name);
}
`;
}

function methodEntry(method: MethodModel, model: Model): string {
  const lines = [
    `  ${propertyKey(method.name)}: {`,
    `    name: ${quote(method.name)},`,
    `    namespace: ${quote(method.namespace)},`,
  ];
  if (method.params.length === 0) lines.push('    params: [],');
  else {
    lines.push('    params: [');
    for (const param of method.params) {
      lines.push('      {');
      lines.push(`        name: ${quote(param.name)},`);
      lines.push(`        required: ${param.required},`);
      const outline = paramWords(param, model);
      lines.push(
        `        expects: ${quote(outline.e ?? describeSchema(param.schema, model.doc.components?.schemas ?? {}))},`,
      );
      lines.push(`        check: paramChecker(validators.${param.validator}, ${JSON.stringify(outline)}),`);
      lines.push('      },');
    }
    lines.push('    ],');
  }
  lines.push(`    requiredParams: ${method.requiredParams},`);
  lines.push(`    checkResult: checker(validators.${method.result.validator}),`);
  if (method.unavailable !== undefined) lines.push(`    unavailable: ${quote(method.unavailable)},`);
  lines.push(`    transport: ${quote(method.transport)},`);
  lines.push('  },');
  return lines.join('\n');
}

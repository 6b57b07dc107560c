/**
 * Turns the parsed OpenRPC document into the small, resolved view model the page renderers need:
 * namespaces in document order, methods sorted by name, `$ref`s to errors/examples/content descriptors
 * followed, and a file-safe slug per method. Structural problems throw here, before any file is written.
 */

/** A JSON Schema as it appears in the document; rendering inspects it defensively. */
export type Schema = boolean | { readonly [keyword: string]: unknown };

export type Transport = 'any' | 'ws';

export interface ParamView {
  readonly name: string;
  readonly required: boolean;
  readonly schema: Schema;
  readonly description?: string;
}

export interface ResultView {
  readonly name: string;
  readonly schema: Schema;
  readonly description?: string;
}

export interface ErrorView {
  readonly code: number;
  readonly message: string;
  /** From `components.x-error-actions` (by the error's component name): what the caller should do about it. */
  readonly action?: string;
}

/** One entry of a method's `x-limits`: the setting (its TOML key) that bounds the method, and how. */
export interface LimitView {
  readonly setting: string;
  readonly effect: string;
}

/** One entry of a method's `x-differences`: where this node answers otherwise than geth or Anvil. */
export interface DifferenceView {
  readonly from: string;
  readonly text: string;
}

export interface ExampleView {
  readonly name: string;
  readonly summary?: string;
  readonly params: readonly unknown[];
  /** Absent when the pairing documents a call without a result. */
  readonly result?: { readonly value: unknown };
}

export interface MethodView {
  readonly name: string;
  /** File name stem of the method page: safe on every file system and in a URL path segment. */
  readonly slug: string;
  readonly namespace: string;
  readonly summary?: string;
  readonly description?: string;
  readonly params: readonly ParamView[];
  readonly result?: ResultView;
  readonly errors: readonly ErrorView[];
  readonly limits: readonly LimitView[];
  readonly differences: readonly DifferenceView[];
  readonly examples: readonly ExampleView[];
  readonly unavailable?: string;
  /**
   * Beyond the spec's catalog: whose API the method follows (`x-extension`: "geth", "openethereum", "anvil",
   * "otterscan", or "svc-node" for this node's own), so a reader knows it is not in the spec and where its shapes come from.
   */
  readonly extension?: string;
  readonly transport: Transport;
  readonly deprecated: boolean;
}

export interface NamespaceView {
  readonly name: string;
  readonly description?: string;
  readonly safety?: string;
  readonly methods: readonly MethodView[];
}

export interface DocsModel {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
  readonly namespaces: readonly NamespaceView[];
  /** Every method, sorted by name. */
  readonly methods: readonly MethodView[];
  readonly schemas: Readonly<Record<string, Schema>>;
  /** Component schema name → names of the methods whose params or result mention it directly. */
  readonly schemaUsers: ReadonlyMap<string, readonly string[]>;
}

type Json = { readonly [key: string]: unknown };

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const optionalString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const requiredString = (value: unknown, where: string): string => {
  if (typeof value !== 'string' || value === '') throw new Error(`generateDocs: ${where} must be a non-empty string`);
  return value;
};

const objectList = (value: unknown, where: string): Json[] => {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every(isObject))
    throw new Error(`generateDocs: ${where} must be an array of objects`);
  return value;
};

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function methodSlug(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]/g, '-');
}

export function buildModel(document: object): DocsModel {
  const doc = document as Json;
  const info = isObject(doc.info) ? doc.info : {};
  const components = isObject(doc.components) ? doc.components : {};
  const schemas = (isObject(components.schemas) ? components.schemas : {}) as Record<string, Schema>;
  const tags = isObject(components.tags) ? components.tags : {};
  // What to do about each shared error, by its components/errors name: kept beside the errors, not inside them,
  // because the OpenRPC meta-schema allows no extension fields on an error object.
  const errorActions = isObject(components['x-error-actions']) ? components['x-error-actions'] : {};
  const errorComponents = isObject(components.errors) ? components.errors : {};
  for (const name of Object.keys(errorActions))
    if (!isObject(errorComponents[name])) throw new Error(`generateDocs: x-error-actions names ${name}, not an error`);
  if (!Array.isArray(doc.methods)) throw new Error('generateDocs: the document has no methods array');

  /** Follows one `#/components/<kind>/<name>` reference, or returns the object itself. */
  const deref = (value: unknown, where: string): Json => {
    if (!isObject(value)) throw new Error(`generateDocs: ${where} is not an object`);
    const ref = value.$ref;
    if (typeof ref !== 'string') return value;
    const match = /^#\/components\/([^/]+)\/(.+)$/.exec(ref);
    const target = match && isObject(components[match[1]]) ? (components[match[1]] as Json)[match[2]] : undefined;
    if (!isObject(target)) throw new Error(`generateDocs: ${where} has an unresolved $ref ${ref}`);
    return target;
  };

  const slugs = new Map<string, string>();
  const methods: MethodView[] = doc.methods.map((raw: unknown, index: number) => {
    const method = deref(raw, `methods[${index}]`);
    const name = optionalString(method.name);
    if (!name) throw new Error(`generateDocs: methods[${index}] has no name`);
    const tagList = Array.isArray(method.tags) ? method.tags : [];
    if (tagList.length !== 1) throw new Error(`generateDocs: ${name} must have exactly one tag (its namespace)`);
    const namespace = namespaceOfTag(tagList[0]);
    if (!namespace || !isObject(tags[namespace])) throw new Error(`generateDocs: ${name} has an unknown namespace tag`);

    const slug = methodSlug(name);
    const clash = slugs.get(slug);
    if (clash) throw new Error(`generateDocs: ${name} and ${clash} would share the page methods/${slug}.html`);
    slugs.set(slug, name);

    const params = (Array.isArray(method.params) ? method.params : []).map((p: unknown, i: number): ParamView => {
      const param = deref(p, `${name} params[${i}]`);
      return {
        name: optionalString(param.name) ?? `param${i}`,
        required: param.required === true,
        schema: (param.schema ?? true) as Schema,
        description: optionalString(param.description) ?? optionalString(param.summary),
      };
    });
    const result = method.result === undefined ? undefined : deref(method.result, `${name} result`);
    const errors = (Array.isArray(method.errors) ? method.errors : []).map((e: unknown, i: number): ErrorView => {
      const error = deref(e, `${name} errors[${i}]`);
      const ref =
        isObject(e) && typeof e.$ref === 'string' ? /^#\/components\/errors\/(.+)$/.exec(e.$ref)?.[1] : undefined;
      return {
        code: Number(error.code),
        message: String(error.message ?? ''),
        action: ref === undefined ? undefined : optionalString(errorActions[ref]),
      };
    });
    const limits = objectList(method['x-limits'], `${name} x-limits`).map(
      (l, i): LimitView => ({
        setting: requiredString(l.setting, `${name} x-limits[${i}].setting`),
        effect: requiredString(l.effect, `${name} x-limits[${i}].effect`),
      }),
    );
    const differences = objectList(method['x-differences'], `${name} x-differences`).map(
      (d, i): DifferenceView => ({
        from: requiredString(d.from, `${name} x-differences[${i}].from`),
        text: requiredString(d.text, `${name} x-differences[${i}].text`),
      }),
    );
    const examples = (Array.isArray(method.examples) ? method.examples : []).map(
      (e: unknown, i: number): ExampleView => {
        const pairing = deref(e, `${name} examples[${i}]`);
        const exampleParams = Array.isArray(pairing.params) ? pairing.params : [];
        const resultObject =
          pairing.result === undefined ? undefined : deref(pairing.result, `${name} examples[${i}].result`);
        return {
          name: optionalString(pairing.name) ?? `example ${i + 1}`,
          summary: optionalString(pairing.summary) ?? optionalString(pairing.description),
          params: exampleParams.map((p: unknown, j: number) => deref(p, `${name} examples[${i}].params[${j}]`).value),
          result: resultObject && 'value' in resultObject ? { value: resultObject.value } : undefined,
        };
      },
    );

    return {
      name,
      slug,
      namespace,
      summary: optionalString(method.summary),
      description: optionalString(method.description),
      params,
      result: result && {
        name: optionalString(result.name) ?? 'result',
        schema: (result.schema ?? true) as Schema,
        description: optionalString(result.description) ?? optionalString(result.summary),
      },
      errors,
      limits,
      differences,
      examples,
      unavailable: optionalString(method['x-unavailable']),
      extension: optionalString(method['x-extension']),
      transport: method['x-transport'] === 'ws' ? 'ws' : 'any',
      deprecated: method.deprecated === true,
    };
  });
  methods.sort((a, b) => byCodeUnits(a.name, b.name));

  const namespaces: NamespaceView[] = Object.entries(tags).map(([key, tag]) => {
    const t = isObject(tag) ? tag : {};
    return {
      name: key,
      description: optionalString(t.description),
      safety: optionalString(t['x-safety']),
      methods: methods.filter((m) => m.namespace === key),
    };
  });

  return {
    title: optionalString(info.title) ?? 'JSON-RPC API',
    version: optionalString(info.version) ?? '',
    description: optionalString(info.description),
    namespaces,
    methods,
    schemas,
    schemaUsers: collectSchemaUsers(methods),
  };
}

function namespaceOfTag(tag: unknown): string | undefined {
  if (!isObject(tag)) return undefined;
  if (typeof tag.$ref === 'string') return /^#\/components\/tags\/(.+)$/.exec(tag.$ref)?.[1];
  return optionalString(tag.name);
}

function collectSchemaUsers(methods: readonly MethodView[]): Map<string, string[]> {
  const users = new Map<string, string[]>();
  for (const method of methods) {
    const names = new Set<string>();
    const schemas = [...method.params.map((p) => p.schema), ...(method.result ? [method.result.schema] : [])];
    for (const schema of schemas) collectRefs(schema, names);
    for (const name of names) {
      const list = users.get(name) ?? [];
      list.push(method.name);
      users.set(name, list);
    }
  }
  return users;
}

/** Component names referenced anywhere inside an (inline) schema. */
export function collectRefs(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectRefs(item, into);
  } else if (isObject(value)) {
    const ref = value.$ref;
    const match = typeof ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(ref) : null;
    if (match) into.add(match[1]);
    for (const [key, child] of Object.entries(value)) if (key !== '$ref') collectRefs(child, into);
  }
}

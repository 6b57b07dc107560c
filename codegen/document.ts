/**
 * Loading the OpenRPC document and turning it into the model every emitter works from, so naming and
 * ordering decisions are made once.
 */
import fs from 'node:fs';
import {
  paramTypeName,
  pascalMethodName,
  clientMethodName,
  componentTypeName,
  resultTypeName,
  validatorName,
} from './naming.js';

export type JsonSchema = { [keyword: string]: unknown };

export interface ContentDescriptor {
  name: string;
  summary?: string;
  description?: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface MethodObject {
  name: string;
  summary?: string;
  description?: string;
  tags?: { $ref?: string; name?: string }[];
  params: ContentDescriptor[];
  result: ContentDescriptor;
  'x-unavailable'?: string;
  'x-transport'?: 'ws';
  [key: string]: unknown;
}

export interface OpenRpcDocument {
  openrpc: string;
  methods: MethodObject[];
  components?: { schemas?: Record<string, JsonSchema>; tags?: Record<string, unknown>; [key: string]: unknown };
  [key: string]: unknown;
}

/** The namespaces in the order ARCHITECTURE.md fixes (the server and docs list them in this order). */
export const NAMESPACES = [
  'eth',
  'web3',
  'net',
  'personal',
  'debug',
  'trace',
  'qa',
  'checkpointing',
  'svc',
  'test',
  'anvil',
  'iele',
  'mcp',
  'rpc',
  'txpool',
  'admin',
  'ots',
] as const;
export type Namespace = (typeof NAMESPACES)[number];

export interface ParamModel {
  name: string;
  required: boolean;
  description?: string;
  schema: JsonSchema;
  /** TypeScript type used in the labelled Params tuple: a component type, or a generated per-param type. */
  typeName: string;
  /** Set when the schema is inline, so types.ts must declare `typeName` from it. */
  inlineSchema?: JsonSchema;
  validator: string;
}

export interface MethodModel {
  name: string;
  pascal: string;
  clientName: string;
  namespace: Namespace;
  summary?: string;
  params: ParamModel[];
  requiredParams: number;
  result: { schema: JsonSchema; typeName: string; refType?: string; validator: string };
  unavailable?: string;
  transport: 'any' | 'ws';
}

export interface Model {
  doc: OpenRpcDocument;
  /** component key → TypeScript type name, in document order. */
  components: Map<string, string>;
  /** Ordered by namespace (NAMESPACES order), then by method name: stable whatever order the authors chose. */
  methods: MethodModel[];
}

export function loadDocument(file: string): OpenRpcDocument {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as OpenRpcDocument;
}

const COMPONENT_REF = /^#\/components\/schemas\/(.+)$/;

/** The component a schema points at, if the schema is exactly a `$ref` (siblings of $ref are not allowed). */
export function componentOf(schema: JsonSchema): string | undefined {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return undefined;
  const match = COMPONENT_REF.exec(ref);
  if (!match) throw new Error(`unsupported $ref ${ref}: only #/components/schemas/… is allowed`);
  return match[1];
}

function namespaceOf(method: MethodObject): Namespace {
  const tags = method.tags ?? [];
  if (tags.length !== 1) throw new Error(`${method.name}: needs exactly one tag (its namespace), has ${tags.length}`);
  const tag = tags[0];
  const name = tag.$ref?.replace(/^#\/components\/tags\//, '') ?? tag.name;
  if (!(NAMESPACES as readonly string[]).includes(name ?? ''))
    throw new Error(`${method.name}: unknown namespace tag ${JSON.stringify(tag)}`);
  return name as Namespace;
}

/**
 * OpenRPC says an absent `required` means optional; ARCHITECTURE.md only allows optional params at the end,
 * so "leading required params" is well defined and checked here rather than trusted.
 */
function countRequired(method: MethodObject): number {
  let count = 0;
  let sawOptional = false;
  for (const param of method.params) {
    if (param.required === true) {
      if (sawOptional) throw new Error(`${method.name}: required param ${param.name} follows an optional one`);
      count++;
    } else sawOptional = true;
  }
  return count;
}

export function buildModel(doc: OpenRpcDocument): Model {
  const schemas = doc.components?.schemas ?? {};
  const components = new Map(Object.keys(schemas).map((key) => [key, componentTypeName(key)] as const));
  const typeOfRef = (schema: JsonSchema, where: string): string | undefined => {
    const key = componentOf(schema);
    if (key === undefined) return undefined;
    const type = components.get(key);
    if (!type) throw new Error(`${where}: $ref to missing component ${key}`);
    return type;
  };

  const namespaceRank = new Map(NAMESPACES.map((ns, i) => [ns, i]));
  const methods = doc.methods.map((method): MethodModel => {
    const pascal = pascalMethodName(method.name);
    if (method.paramStructure !== 'by-position') throw new Error(`${method.name}: paramStructure must be by-position`);
    const params = method.params.map((param): ParamModel => {
      if (!/^[a-z][A-Za-z0-9]*$/.test(param.name))
        throw new Error(`${method.name}: param name ${param.name} is not lowerCamel`);
      const ownType = paramTypeName(pascal, param.name);
      const refType = typeOfRef(param.schema, `${method.name} param ${param.name}`);
      return {
        name: param.name,
        required: param.required === true,
        description: param.description ?? param.summary,
        schema: param.schema,
        typeName: refType ?? ownType,
        inlineSchema: refType ? undefined : param.schema,
        validator: validatorName(ownType),
      };
    });
    const resultName = resultTypeName(pascal);
    const transport = method['x-transport'];
    if (transport !== undefined && transport !== 'ws') throw new Error(`${method.name}: x-transport must be "ws"`);
    return {
      name: method.name,
      pascal,
      clientName: clientMethodName(method.name),
      namespace: namespaceOf(method),
      summary: method.summary,
      params,
      requiredParams: countRequired(method),
      result: {
        schema: method.result.schema,
        typeName: resultName,
        refType: typeOfRef(method.result.schema, `${method.name} result`),
        validator: validatorName(resultName),
      },
      unavailable: method['x-unavailable'],
      transport: transport ?? 'any',
    };
  });
  methods.sort(
    (a, b) => namespaceRank.get(a.namespace)! - namespaceRank.get(b.namespace)! || compareStrings(a.name, b.name),
  );
  assertUnique(
    methods.map((m) => m.name),
    'method name',
  );
  assertUnique(
    methods.map((m) => m.clientName),
    'client method name',
  );
  assertUnique(
    [
      ...components.values(),
      ...methods.flatMap((m) => [
        `${m.pascal}Params`,
        // A component may itself be named after the result it is (`QaMineBlocksResult`): then it is the result type.
        ...(m.result.refType === m.result.typeName ? [] : [m.result.typeName]),
        ...m.params.map((p) => paramTypeName(m.pascal, p.name)),
      ]),
    ],
    'generated type name',
  );
  return { doc, components, methods };
}

/** Code-unit order, independent of the machine's locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function assertUnique(names: string[], what: string): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new Error(`two things would get the ${what} ${name}`);
    seen.add(name);
  }
}

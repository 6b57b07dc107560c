/**
 * types.ts: json-schema-to-typescript over ONE root holding every component and every inline per-method
 * schema, so each schema is declared once under one name (no `Address1` duplicates), then the labelled
 * Params tuples and the method map, which json-schema-to-typescript cannot express.
 */
import { compile } from 'json-schema-to-typescript';
import type { JsonSchema, Model } from './document.js';
import { paramsTupleName, propertyKey } from './naming.js';
import { forEachObject, rewriteRefs } from './schemas.js';

const ROOT_NAME = 'GeneratedSchemaRoot';
const HEX_TYPE = '`0x${string}`';

export async function emitTypes(model: Model, header: string): Promise<string> {
  const definitions: Record<string, JsonSchema> = {};
  const typeNames = new Map<string, string>();
  for (const [key, schema] of Object.entries(model.doc.components?.schemas ?? {})) {
    definitions[key] = schema;
    typeNames.set(key, model.components.get(key)!);
  }
  for (const method of model.methods) {
    for (const param of method.params) {
      if (param.inlineSchema) {
        definitions[param.typeName] = param.inlineSchema;
        typeNames.set(param.typeName, param.typeName);
      }
    }
    // A bare $ref would be folded into the referenced type by the compiler, so those get an alias below.
    if (!method.result.refType) {
      definitions[method.result.typeName] = method.result.schema;
      typeNames.set(method.result.typeName, method.result.typeName);
    }
  }
  const root = rewriteRefs({ title: ROOT_NAME, definitions }, '#/definitions/');
  forEachObject(root.definitions, markHexStrings);

  const compiled = await compile(root as never, ROOT_NAME, {
    bannerComment: header,
    unreachableDefinitions: true,
    strictIndexSignatures: true,
    customName: (_schema, definitionKey) => (definitionKey === undefined ? undefined : typeNames.get(definitionKey)),
  });
  return `${tidy(compiled)}\n${methodTypes(model)}`;
}

/** Hex strings become template literal types, so a plain `string` is not accepted where hex is required. */
function markHexStrings(schema: JsonSchema): void {
  if (
    schema.type === 'string' &&
    typeof schema.pattern === 'string' &&
    schema.pattern.startsWith('^0x') &&
    !schema.enum &&
    schema.const === undefined
  ) {
    schema.tsType = HEX_TYPE;
  }
}

/** Drops the synthetic root type and the compiler's "referenced via definition" notes. */
function tidy(source: string): string {
  const rootDeclaration = new RegExp(`\\nexport interface ${ROOT_NAME} \\{[^}]*\\}\\n`);
  if (!rootDeclaration.test(source))
    throw new Error('json-schema-to-typescript output changed: root interface not found');
  return source
    .replace(rootDeclaration, '\n')
    .replace(
      /(?:\n \*)?\n \* This interface was referenced by `[^`]+`'s JSON-Schema\n \* via the `definition` "[^"\n]*"\./g,
      '',
    )
    .replace(/\/\*\*\n \*\/\n/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd();
}

function methodTypes(model: Model): string {
  const out: string[] = [];
  for (const method of model.methods) {
    const elements = method.params.map((p) => `${p.name}${p.required ? '' : '?'}: ${p.typeName}`);
    out.push(`/** Positional params of \`${method.name}\`. */`);
    out.push(`export type ${paramsTupleName(method.pascal)} = [${elements.join(', ')}];`);
    if (method.result.refType && method.result.refType !== method.result.typeName) {
      out.push(`/** Result of \`${method.name}\`. */`);
      out.push(`export type ${method.result.typeName} = ${method.result.refType};`);
    }
  }
  out.push('');
  out.push('/** Params and result of every method, keyed by method name. */');
  out.push('export interface RpcMethods {');
  for (const method of model.methods) {
    out.push(
      `  ${propertyKey(method.name)}: { params: ${paramsTupleName(method.pascal)}; result: ${method.result.typeName} };`,
    );
  }
  out.push('}');
  return `${out.join('\n')}\n`;
}

/**
 * JSON Schemas the MCP tools publish. Output schemas are taken from openrpc.json (through the generated
 * document), so the shape a tool announces to MCP clients, the shape the docs show and the shape the result
 * validator checks are one schema. MCP wants each one self-contained, so component references are inlined.
 */
import { openrpcDocument, type JsonValue } from '../generated/openrpc.js';

type JsonObject = { [key: string]: JsonValue };

const COMPONENT_REF = '#/components/schemas/';

function componentSchemas(): JsonObject {
  const components = openrpcDocument().components as JsonObject;
  return components.schemas as JsonObject;
}

/** A copy of `schema` with every `{"$ref": "#/components/schemas/X"}` replaced by X's schema (recursively). */
function inlineRefs(schema: JsonValue, components: JsonObject): JsonValue {
  if (Array.isArray(schema)) return schema.map((item) => inlineRefs(item, components));
  if (schema === null || typeof schema !== 'object') return schema;
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    if (!ref.startsWith(COMPONENT_REF)) throw new Error(`unsupported $ref ${ref}`);
    const target = components[ref.slice(COMPONENT_REF.length)];
    if (target === undefined) throw new Error(`$ref to a missing component: ${ref}`);
    return inlineRefs(target, components);
  }
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) out[key] = inlineRefs(value, components);
  return out;
}

/** The self-contained JSON Schema of an openrpc.json component (throws for an unknown name: a programming error). */
export function componentSchema(name: string): JsonObject {
  const components = componentSchemas();
  const schema = components[name];
  if (schema === undefined) throw new Error(`openrpc.json has no component schema ${name}`);
  return inlineRefs(schema, components) as JsonObject;
}

/** The input schema of a tool or prompt that takes no arguments: an empty object, nothing else allowed. */
export const NO_ARGUMENTS: JsonObject = { type: 'object', properties: {}, additionalProperties: false };

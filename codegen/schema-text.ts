/** Human text for "what does this param expect", used in invalid-params errors. */
import { componentOf, type JsonSchema, type Model, type ParamModel } from './document.js';

export function expectsText(param: ParamModel, model: Model): string {
  const schemas = model.doc.components?.schemas ?? {};
  const own = text(param.schema.description);
  if (own) return own;
  const component = componentOf(param.schema);
  const referenced = component === undefined ? undefined : text(schemas[component]?.description);
  return referenced ?? text(param.description) ?? describeSchema(param.schema, schemas);
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value.trim() : undefined;

/** A last resort when nobody wrote a description: the shape, named by component titles. */
function describeSchema(schema: JsonSchema, schemas: Record<string, JsonSchema>): string {
  const component = componentOf(schema);
  if (component !== undefined) return String(schemas[component]?.title ?? component);
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches)) return branches.map((b) => describeSchema(b as JsonSchema, schemas)).join(' or ');
  }
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (schema.type === 'array') {
    const items = schema.items;
    return items && typeof items === 'object' && !Array.isArray(items)
      ? `an array of ${describeSchema(items as JsonSchema, schemas)}`
      : 'an array';
  }
  if (typeof schema.type === 'string')
    return schema.type === 'object' || schema.type === 'array' || schema.type === 'integer'
      ? `an ${schema.type}`
      : `a ${schema.type}`;
  return 'any JSON value';
}

/**
 * Renders a JSON Schema as a short, readable type expression ("array of hash32", "Block or null") with
 * component names linked to their anchors on the schemas page.
 */
import { html, raw, type Html } from './html.js';
import type { Schema } from './model.js';

type SchemaObject = { readonly [keyword: string]: unknown };

const isObject = (value: unknown): value is SchemaObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The component a `$ref` points at, or undefined for anything else. */
export function refName(schema: unknown): string | undefined {
  if (!isObject(schema) || typeof schema.$ref !== 'string') return undefined;
  return /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1];
}

export function schemaHref(root: string, name: string): string {
  return `${root}schemas.html#${encodeURIComponent(name)}`;
}

/** `notFound` is the document's spelling of JSON null; readers know it as null. */
const isNull = (schema: unknown): boolean =>
  refName(schema) === 'notFound' || (isObject(schema) && schema.type === 'null' && Object.keys(schema).length <= 2);

const joined = (parts: readonly Html[], separator: string): Html => raw(parts.map((p) => p.value).join(separator));

const literal = (value: unknown): Html => html`<code>${JSON.stringify(value)}</code>`;

export function renderType(schema: Schema | unknown, root: string): Html {
  if (schema === true || (isObject(schema) && Object.keys(schema).length === 0)) return html`any`;
  if (!isObject(schema)) return html`nothing`;

  const ref = refName(schema);
  if (ref !== undefined) {
    if (ref === 'notFound') return html`<code>null</code>`;
    return html`<a class="type-ref" href="${schemaHref(root, ref)}"><code>${ref}</code></a>`;
  }
  if (typeof schema.$ref === 'string') return html`<code>${schema.$ref}</code>`;

  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const options = schema[keyword];
    if (Array.isArray(options)) {
      // Put null last so the expression reads "Block or null".
      const ordered = [...options.filter((o) => !isNull(o)), ...options.filter(isNull)];
      return joined(
        ordered.map((o) => renderType(o, root)),
        ' or ',
      );
    }
  }
  if (Array.isArray(schema.allOf))
    return joined(
      schema.allOf.map((s) => renderType(s, root)),
      ' and ',
    );
  if ('const' in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return joined(schema.enum.map(literal), ' | ');

  if (Array.isArray(schema.type)) {
    return joined(
      schema.type.map((t) => renderType({ ...schema, type: t }, root)),
      ' or ',
    );
  }
  switch (schema.type) {
    case 'array':
      return renderArray(schema, root);
    case 'object':
      return renderObject(schema, root);
    case 'integer':
    case 'number':
    case 'boolean':
    case 'null':
      return html`<code>${schema.type}</code>`;
    case 'string':
      return html`<code>string</code>`;
    default:
      return html`any`;
  }
}

function renderArray(schema: SchemaObject, root: string): Html {
  const bounds = arrayBounds(schema);
  if (Array.isArray(schema.prefixItems) || Array.isArray(schema.items)) {
    const items = (Array.isArray(schema.prefixItems) ? schema.prefixItems : schema.items) as unknown[];
    return html`[${joined(
      items.map((s) => renderType(s, root)),
      ', ',
    )}]${bounds}`;
  }
  if (schema.items === undefined) return html`array${bounds}`;
  return html`array of ${renderType(schema.items, root)}${bounds}`;
}

function arrayBounds(schema: SchemaObject): string {
  const min = typeof schema.minItems === 'number' ? schema.minItems : undefined;
  const max = typeof schema.maxItems === 'number' ? schema.maxItems : undefined;
  if (min !== undefined && max !== undefined) return min === max ? ` (exactly ${min})` : ` (${min} to ${max})`;
  if (max !== undefined) return ` (at most ${max})`;
  if (min !== undefined && min > 0) return ` (at least ${min})`;
  return '';
}

function renderObject(schema: SchemaObject, root: string): Html {
  const properties = isObject(schema.properties) ? schema.properties : undefined;
  if (!properties || Object.keys(properties).length === 0) {
    if (isObject(schema.additionalProperties))
      return html`map of string to ${renderType(schema.additionalProperties, root)}`;
    return html`<code>object</code>`;
  }
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const fields = Object.entries(properties).map(
    ([name, child]) => html`<code>${name}${required.has(name) ? '' : '?'}</code>: ${renderType(child, root)}`,
  );
  return html`{ ${joined(fields, ', ')} }`;
}

/** Constraints worth telling a reader that the type expression does not show. */
export function constraintsOf(schema: Schema | unknown): Html | undefined {
  if (!isObject(schema)) return undefined;
  const notes: Html[] = [];
  if (typeof schema.pattern === 'string') notes.push(html`pattern <code>${schema.pattern}</code>`);
  if (typeof schema.format === 'string') notes.push(html`format <code>${schema.format}</code>`);
  if (typeof schema.minLength === 'number') notes.push(html`min length ${schema.minLength}`);
  if (typeof schema.maxLength === 'number') notes.push(html`max length ${schema.maxLength}`);
  if (typeof schema.minimum === 'number') notes.push(html`minimum ${schema.minimum}`);
  if (typeof schema.maximum === 'number') notes.push(html`maximum ${schema.maximum}`);
  return notes.length ? joined(notes, '; ') : undefined;
}

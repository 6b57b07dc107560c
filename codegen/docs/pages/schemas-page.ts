/** The shared component schemas, each under an anchor named after it, with the methods that use it. */
import { html, prose, inlineProse, type Html } from '../html.js';
import { page, methodHref } from '../layout.js';
import { renderType, constraintsOf } from '../schema-type.js';
import { methodSlug, type DocsModel, type Schema } from '../model.js';

const isObject = (value: unknown): value is { readonly [k: string]: unknown } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function schemasPage(model: DocsModel): string {
  const root = './';
  const names = Object.keys(model.schemas);
  const body = html`<h1>Schemas</h1>
<p>Types shared by the methods, named as in ethereum/execution-apis. Hex values are <code>0x</code>-prefixed; quantities
(<code>uint</code>…) have no leading zeros, byte strings have two digits per byte.</p>
<nav aria-label="Schemas" class="schema-index"><ul>
${names.map((name) => html`<li><a href="#${encodeURIComponent(name)}"><code>${name}</code></a></li>`)}
</ul></nav>
${names.map((name) => schemaSection(model, name, model.schemas[name], root))}
`;
  return page(model, { title: 'Schemas', root, current: 'schemas', body });
}

function schemaSection(model: DocsModel, name: string, schema: Schema, root: string): Html {
  const description = isObject(schema) && typeof schema.description === 'string' ? schema.description : undefined;
  const users = model.schemaUsers.get(name) ?? [];
  const constraints = constraintsOf(schema);
  return html`<section class="schema" id="${name}" aria-labelledby="schema-heading-${name}">
<h2 id="schema-heading-${name}"><code>${name}</code></h2>
${prose(description)}
${shape(schema, root)}
${constraints ? html`<p class="constraints">${constraints}</p>` : ''}
${users.length ? html`<p class="used-by">Used by ${users.map((m, i) => html`${i ? ', ' : ''}<a href="${methodHref(root, methodSlug(m))}"><code>${m}</code></a>`)}</p>` : ''}
</section>
`;
}

/** Objects get a field table; everything else reads fine as one type expression. */
function shape(schema: Schema, root: string): Html {
  const properties =
    isObject(schema) && schema.type === 'object' && isObject(schema.properties) ? schema.properties : undefined;
  if (!properties || !isObject(schema)) return html`<p class="type">Type: ${renderType(schema, root)}</p>`;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return html`<table class="fields">
<thead><tr><th scope="col">Field</th><th scope="col">Required</th><th scope="col">Type</th><th scope="col">Description</th></tr></thead>
<tbody>
${Object.entries(properties).map(([field, child]) => {
  const text = isObject(child) && typeof child.description === 'string' ? child.description : undefined;
  return html`<tr><th scope="row"><code>${field}</code></th><td>${required.has(field) ? 'required' : 'optional'}</td><td>${renderType(child, root)}</td><td>${inlineProse(text)}</td></tr>
`;
})}</tbody>
</table>`;
}

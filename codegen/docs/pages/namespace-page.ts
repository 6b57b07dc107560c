/** One page per namespace: its safety class and a table of its methods. */
import { html, prose, inlineProse } from '../html.js';
import { safetyBadge, availabilityBadge, extensionBadge, transportBadge, SAFETY_MEANING } from '../badges.js';
import { page, methodHref } from '../layout.js';
import type { DocsModel, NamespaceView } from '../model.js';

export function namespacePage(model: DocsModel, ns: NamespaceView): string {
  const root = '../';
  const meaning = ns.safety && Object.hasOwn(SAFETY_MEANING, ns.safety) ? SAFETY_MEANING[ns.safety] : undefined;
  const body = html`<nav class="breadcrumb" aria-label="Breadcrumb"><a href="${root}index.html">Overview</a> / <span>${ns.name}</span></nav>
<h1><code>${ns.name}</code> ${safetyBadge(ns.safety)}</h1>
${prose(ns.description)}
${meaning ? html`<p class="safety-note">Safety class <strong>${ns.safety}</strong>: ${meaning}.</p>` : ''}
${
  ns.methods.length === 0
    ? html`<p>No methods in this namespace.</p>`
    : html`<table class="methods">
<thead><tr><th scope="col">Method</th><th scope="col">Summary</th><th scope="col">Status</th></tr></thead>
<tbody>
${ns.methods.map(
  (
    m,
  ) => html`<tr><th scope="row"><a href="${methodHref(root, m.slug)}"><code>${m.name}</code></a></th><td>${inlineProse(m.summary)}</td><td>${availabilityBadge(m)} ${transportBadge(m)} ${extensionBadge(m)}</td></tr>
`,
)}</tbody>
</table>`
}
`;
  return page(model, { title: ns.name, root, current: ns.name, body });
}

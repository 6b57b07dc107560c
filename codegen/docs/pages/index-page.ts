/** The portal's front page: what the node is, its namespaces, what does not answer yet, and search. */
import { html } from '../html.js';
import { prose, inlineProse } from '../html.js';
import { safetyBadge, SAFETY_MEANING } from '../badges.js';
import { page, namespaceHref, methodHref } from '../layout.js';
import { GUIDES, guideHref } from '../guides.js';
import type { DocsModel } from '../model.js';

/**
 * The index is also served at `/docs` without a trailing slash, where a plain relative link would resolve
 * against `/`. Going up one level and back into `docs/` resolves to the same place from `/docs`, `/docs/`
 * and `/docs/index.html`.
 */
export const INDEX_ROOT = '../docs/';

export function indexPage(model: DocsModel): string {
  const root = INDEX_ROOT;
  const unavailable = model.methods.filter((m) => m.unavailable !== undefined);
  const safetyClasses = [...new Set(model.namespaces.map((ns) => ns.safety).filter((s): s is string => !!s))];
  const availableCount = model.methods.length - unavailable.length;

  const body = html`<h1>${model.title}</h1>
<section aria-labelledby="about">
<h2 id="about" class="visually-hidden">About</h2>
${prose(model.description)}
<p>Every method below is called as JSON-RPC 2.0: <code>POST</code> a request
object (or a batch array) with <code>Content-Type: application/json</code> to the node's root URL. Method pages have a
<strong>Try it</strong> form that sends the example request to the node serving this page.</p>
<p>New here? <a href="${guideHref(root, 'getting-started')}">Getting started</a> runs a dev chain and talks to it in a minute.</p>
<p class="totals">${model.methods.length} methods in ${model.namespaces.length} namespaces; ${availableCount} answer today,
${unavailable.length} not yet. <a href="${root}schemas.html">${Object.keys(model.schemas).length} shared schemas</a>.</p>
</section>

<section aria-labelledby="guides">
<h2 id="guides">Guides</h2>
<ul class="guide-list">
${GUIDES.map(
  (g) => html`<li><a href="${guideHref(root, g.slug)}">${g.label}</a>: ${inlineProse(g.summary)}</li>
`,
)}</ul>
</section>

<section aria-labelledby="namespaces">
<h2 id="namespaces">Namespaces</h2>
<p>The namespace is the method-name prefix. Which namespaces a node serves is set by its <code>apis</code> configuration;
the safety class says where a namespace may be exposed.</p>
<table class="namespaces">
<thead><tr><th scope="col">Namespace</th><th scope="col">Safety</th><th scope="col" class="num">Methods</th><th scope="col" class="num">Available</th><th scope="col">Description</th></tr></thead>
<tbody>
${model.namespaces.map(
  (
    ns,
  ) => html`<tr><th scope="row"><a href="${namespaceHref(root, ns.name)}"><code>${ns.name}</code></a></th><td>${safetyBadge(ns.safety)}</td><td class="num">${ns.methods.length}</td><td class="num">${ns.methods.filter((m) => m.unavailable === undefined).length}</td><td>${inlineProse(ns.description)}</td></tr>
`,
)}</tbody>
</table>
<dl class="legend">
${safetyClasses.map((s) => html`<dt>${safetyBadge(s)}</dt><dd>${Object.hasOwn(SAFETY_MEANING, s) ? SAFETY_MEANING[s] : ''}</dd>`)}
</dl>
</section>

<section aria-labelledby="not-yet-available">
<h2 id="not-yet-available">Not yet available</h2>
${
  unavailable.length === 0
    ? html`<p>Every method in the document answers.</p>`
    : html`<p>These methods are part of the API but this build cannot serve them yet: the node answers
<code>-32004 Method not supported</code> without running them.</p>
<table class="unavailable-methods">
<thead><tr><th scope="col">Method</th><th scope="col">Namespace</th><th scope="col">Why</th></tr></thead>
<tbody>
${unavailable.map(
  (
    m,
  ) => html`<tr><th scope="row"><a href="${methodHref(root, m.slug)}"><code>${m.name}</code></a></th><td>${m.namespace}</td><td>${inlineProse(m.unavailable)}</td></tr>
`,
)}</tbody>
</table>`
}
</section>
`;
  return page(model, { title: 'Overview', root, current: 'index', body });
}

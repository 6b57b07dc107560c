/**
 * The page shell shared by every portal page: header with the search box, namespace navigation, main content.
 *
 * Links are relative to `root` (the path from the page back to the portal's top directory) so the site works
 * under the node's `/docs/` prefix, from any other mount point, and from the file system.
 */
import { html, type Html } from './html.js';
import type { DocsModel } from './model.js';
import { GUIDES, guideHref } from './guides.js';

export interface PageSpec {
  /** Text for `<title>`, before the site name. */
  readonly title: string;
  readonly root: string;
  /** Which navigation entry is the current page: 'index', 'schemas', 'guide:<slug>' or a namespace name. */
  readonly current?: string;
  readonly body: Html;
}

export const ASSETS = { css: 'assets/style.css', js: 'assets/portal.js' } as const;

export const namespaceHref = (root: string, namespace: string): string =>
  `${root}namespaces/${namespace.replace(/[^A-Za-z0-9_.-]/g, '-')}.html`;

export const methodHref = (root: string, slug: string): string => `${root}methods/${slug}.html`;

export function page(model: DocsModel, spec: PageSpec): string {
  const { root, current } = spec;
  const ariaCurrent = (key: string) => (current === key ? html` aria-current="page"` : '');
  const doc = html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${spec.title} · ${model.title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${root}${ASSETS.css}">
<script defer src="${root}${ASSETS.js}"></script>
</head>
<body data-root="${root}">
<a class="skip-link" href="#content">Skip to content</a>
<header class="site-header">
  <a class="site-name" href="${root}index.html">${model.title}${model.version ? html` <span class="version">v${model.version}</span>` : ''}</a>
  <div class="search" role="search">
    <label for="portal-search-input">Search guides and methods</label>
    <input id="portal-search-input" type="search" autocomplete="off" spellcheck="false"
      placeholder="a method or a topic, e.g. getBalance, logs, tracing" aria-describedby="portal-search-status" aria-controls="portal-search-results">
    <p id="portal-search-status" class="search-status" aria-live="polite"></p>
    <ul id="portal-search-results" class="search-results" hidden></ul>
  </div>
</header>
<div class="layout">
<nav class="site-nav" aria-label="Guides and namespaces">
  <ul>
    <li><a href="${root}index.html"${ariaCurrent('index')}>Overview</a></li>
  </ul>
  <h2 class="nav-heading">Guides</h2>
  <ul>
    ${GUIDES.map(
      (g) => html`<li><a href="${guideHref(root, g.slug)}"${ariaCurrent(`guide:${g.slug}`)}>${g.label}</a></li>
    `,
    )}</ul>
  <h2 class="nav-heading">API</h2>
  <ul>
    ${model.namespaces.map(
      (
        ns,
      ) => html`<li><a href="${namespaceHref(root, ns.name)}"${ariaCurrent(ns.name)}>${ns.name}<span class="count">${ns.methods.length}</span></a></li>
    `,
    )}<li><a href="${root}schemas.html"${ariaCurrent('schemas')}>Schemas</a></li>
  </ul>
</nav>
<main id="content" tabindex="-1">
${spec.body}
</main>
</div>
<footer class="site-footer">Generated from the OpenRPC document by <code>npm run codegen</code>; do not edit by hand.</footer>
</body>
</html>
`;
  return doc.value;
}

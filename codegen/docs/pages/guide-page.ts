/** One page per guide: the rendered Markdown inside the portal's layout. */
import { html, raw } from '../html.js';
import { page } from '../layout.js';
import type { Guide, RenderedGuide } from '../guides.js';
import type { DocsModel } from '../model.js';

export function guidePage(model: DocsModel, guide: Guide, rendered: RenderedGuide): string {
  const root = '../';
  const body = html`<nav class="breadcrumb" aria-label="Breadcrumb"><a href="${root}index.html">Overview</a> / <span>Guides</span> / <span>${guide.label}</span></nav>
<article class="guide">
${raw(rendered.body)}</article>
`;
  return page(model, { title: rendered.title, root, current: `guide:${guide.slug}`, body });
}

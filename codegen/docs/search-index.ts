/**
 * The search index is computed at generation time and shipped inside portal.js, so searching needs no
 * fetch and works from the file system too. It holds every method and every guide (with its headings as keywords).
 */
import type { Guide } from './guides.js';
import type { DocsModel } from './model.js';

export interface SearchEntry {
  readonly kind: 'method' | 'guide';
  readonly name: string;
  readonly summary: string;
  readonly namespace: string;
  /** Relative to the portal's top directory. */
  readonly path: string;
  readonly unavailable: boolean;
  /** Extra words that find the entry but are not shown (a guide's section headings). */
  readonly keywords?: string;
}

export interface IndexedGuide {
  readonly guide: Guide;
  readonly markdown: string;
}

/** A guide's `##`/`###` headings as plain words, for its keywords. */
export function guideHeadings(markdown: string): string[] {
  return [...markdown.matchAll(/^#{2,3}\s+(.+)$/gm)].map((m) => m[1].replace(/[`*_[\]]/g, '').trim());
}

export function buildSearchIndex(model: DocsModel, guides: readonly IndexedGuide[] = []): SearchEntry[] {
  const methods = model.methods.map(
    (m): SearchEntry => ({
      kind: 'method',
      name: m.name,
      summary: m.summary ?? '',
      namespace: m.namespace,
      path: `methods/${m.slug}.html`,
      unavailable: m.unavailable !== undefined,
    }),
  );
  const guideEntries = guides.map(
    ({ guide, markdown }): SearchEntry => ({
      kind: 'guide',
      name: guide.label,
      summary: guide.summary.replace(/`/g, ''),
      namespace: 'guides',
      path: `guides/${guide.slug}.html`,
      unavailable: false,
      keywords: guideHeadings(markdown).join(' · '),
    }),
  );
  return [...guideEntries, ...methods];
}

/**
 * The search index is computed at generation time and shipped inside portal.js, so searching needs no
 * fetch and works from the file system too.
 */
import type { DocsModel } from './model.js';

export interface SearchEntry {
  readonly name: string;
  readonly summary: string;
  readonly namespace: string;
  /** Relative to the portal's top directory. */
  readonly path: string;
  readonly unavailable: boolean;
}

export function buildSearchIndex(model: DocsModel): SearchEntry[] {
  return model.methods.map((m) => ({
    name: m.name,
    summary: m.summary ?? '',
    namespace: m.namespace,
    path: `methods/${m.slug}.html`,
    unavailable: m.unavailable !== undefined,
  }));
}

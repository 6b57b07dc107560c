/**
 * Serves the generated docs portal (`docs/` at the repo root) under `/docs/`. Files are read on request so a
 * regenerated portal shows up without a restart; this is not a hot path.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const defaultDocsDir = fileURLToPath(new URL('../../docs/', import.meta.url));

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  // Markdown in docs/ (a hand-written note, if any) is shown as text rather than downloaded.
  '.md': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

export interface StaticFile {
  readonly body: Uint8Array;
  readonly contentType: string;
}

/**
 * The file for `relativePath` (the part of the URL after `/docs/`), or `undefined` when absent or outside the
 * docs folder. A directory serves its `index.html`.
 */
export async function readDocsFile(docsDir: string, relativePath: string): Promise<StaticFile | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(relativePath);
  } catch {
    return undefined;
  }
  const root = normalize(docsDir.endsWith(sep) ? docsDir : docsDir + sep);
  let path = normalize(join(root, decoded));
  if (!path.startsWith(root) && path + sep !== root) return undefined;
  try {
    if ((await stat(path)).isDirectory()) path = join(path, 'index.html');
    const body = await readFile(path);
    return { body, contentType: contentTypes[extname(path).toLowerCase()] ?? 'application/octet-stream' };
  } catch {
    return undefined;
  }
}

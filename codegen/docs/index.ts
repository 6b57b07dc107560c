/**
 * Writes the static docs portal for an OpenRPC document: plain HTML pages, one stylesheet and one script.
 * Output depends only on the document, so regenerating an unchanged document is byte-identical.
 *
 *   await generateDocs(parsedOpenrpcDocument, 'docs');
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildModel } from './model.js';
import { buildSearchIndex, type IndexedGuide } from './search-index.js';
import { ASSETS, namespaceHref, methodHref } from './layout.js';
import { indexPage } from './pages/index-page.js';
import { namespacePage } from './pages/namespace-page.js';
import { methodPage } from './pages/method-page.js';
import { schemasPage } from './pages/schemas-page.js';
import { guidePage } from './pages/guide-page.js';
import { GUIDES, guideHref, renderGuide } from './guides.js';

const ASSET_SOURCES = fileURLToPath(new URL('./assets/', import.meta.url));
const GUIDE_SOURCES = fileURLToPath(new URL('./guides/', import.meta.url));

/** Everything the generator owns inside docsDir; only these are removed before writing (the Grafana dashboard and other hand-written files stay). */
export const GENERATED_ENTRIES = ['index.html', 'schemas.html', 'assets', 'namespaces', 'methods', 'guides'];

/**
 * @param document the parsed OpenRPC document (plain JSON object, `$ref`s not dereferenced)
 * @param docsDir directory to write into (created if missing); previously generated pages are replaced
 */
export async function generateDocs(document: object, docsDir: string): Promise<void> {
  const model = buildModel(document);
  const files = new Map<string, string>();

  files.set('index.html', indexPage(model));
  files.set('schemas.html', schemasPage(model));
  for (const ns of model.namespaces) files.set(namespaceHref('', ns.name), namespacePage(model, ns));
  for (const method of model.methods) files.set(methodHref('', method.slug), methodPage(model, method));
  const indexed: IndexedGuide[] = [];
  for (const guide of GUIDES) {
    const markdown = await readFile(path.join(GUIDE_SOURCES, `${guide.slug}.md`), 'utf8');
    files.set(guideHref('', guide.slug), guidePage(model, guide, renderGuide(markdown)));
    indexed.push({ guide, markdown });
  }

  files.set(ASSETS.css, await readFile(path.join(ASSET_SOURCES, 'style.css'), 'utf8'));
  const script = await readFile(path.join(ASSET_SOURCES, 'portal.js'), 'utf8');
  files.set(ASSETS.js, `${script}\nstartPortal(${JSON.stringify(buildSearchIndex(model, indexed))});\n`);

  // Clear stale pages (a renamed method must not leave its old page behind), then write everything.
  await Promise.all(GENERATED_ENTRIES.map((entry) => rm(path.join(docsDir, entry), { recursive: true, force: true })));
  for (const [relative, content] of files) {
    const target = path.join(docsDir, relative);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, content);
  }
}

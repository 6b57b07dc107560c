/**
 * `npm run codegen`: openrpc.json → src/generated/, the client package's sources in clients/typescript/src/ (and the
 * docs portal → docs/ once codegen/docs exists).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadDocument } from './document.js';
import { generate, generateClientPackage } from './generate.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const doc = loadDocument(path.join(root, 'openrpc.json'));

const written = await generate(doc, path.join(root, 'src/generated'));
console.log(`src/generated: ${written.length ? written.map((f) => path.relative(root, f)).join(', ') : 'up to date'}`);
const clientWritten = await generateClientPackage(doc, path.join(root, 'clients/typescript/src'));
console.log(
  `clients/typescript/src: ${clientWritten.length ? clientWritten.map((f) => path.relative(root, f)).join(', ') : 'up to date'}`,
);

// The docs portal generator is optional: run it when codegen/docs/index.ts is present.
const docsModule = path.join(root, 'codegen/docs/index.ts');
if (fs.existsSync(docsModule)) {
  const { generateDocs } = (await import(pathToFileURL(docsModule).href)) as {
    generateDocs: (d: typeof doc, dir: string) => unknown;
  };
  await generateDocs(doc, path.join(root, 'docs'));
  console.log('docs: generated');
}

/**
 * `npm run codegen`: openrpc/ (the spec's parts) → openrpc.json (the published document), src/generated/, the
 * handler table (src/handlers/methods.generated.ts), the client package's sources in clients/typescript/src/, the Python
 * client's types.py and client.py (clients/python/svc_node_client/) and the
 * docs portal in docs/. None of these outputs is committed: bin/build.js runs this whenever its inputs changed
 * (bin/codegen-stamp.js), at `npm install`/`npm ci` (prepare), `npm pack` (prepack), before a start in a checkout and
 * before the tests.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { codegenInputsHash, codegenStampFile, hashText, readCodegenStamp } from '../bin/codegen-stamp.js';
import { composeSpec } from './compose.js';
import { generateDocs } from './docs/index.js';
import { buildModel } from './document.js';
import { emitHandlerTable, findHandlers } from './emit-handler-table.js';
import { generate, generateClientPackage, generatePythonClient, HEADER, writeChanged } from './generate.js';

const started = performance.now();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rel = (files: string[]) => (files.length ? files.map((f) => path.relative(root, f)).join(', ') : 'up to date');
const inputs = codegenInputsHash(root);
const { doc, text } = composeSpec(root);

// openrpc.json is an output, but it used to be the source: an edit made to it by hand is not overwritten.
const openrpcFile = path.join(root, 'openrpc.json');
if (fs.existsSync(openrpcFile)) {
  const current = fs.readFileSync(openrpcFile, 'utf8');
  if (current !== text && hashText(current) !== readCodegenStamp().openrpc) {
    console.error(
      'openrpc.json differs from what openrpc/ composes, and codegen did not write it (an edit by hand, or a merge).\n' +
        'The parts in openrpc/ are the source: take the edit into them with `npm run spec:split` (then rerun\n' +
        '`npm run codegen`), or delete openrpc.json to drop it.',
    );
    process.exit(1);
  }
}
if (!fs.existsSync(openrpcFile) || fs.readFileSync(openrpcFile, 'utf8') !== text) fs.writeFileSync(openrpcFile, text);

console.log(`src/generated: ${rel(await generate(doc, path.join(root, 'src/generated')))}`);
const table = emitHandlerTable(findHandlers(buildModel(doc), path.join(root, 'src/handlers')), HEADER);
console.log(
  `handler table: ${rel(writeChanged(new Map([['methods.generated.ts', table]]), path.join(root, 'src/handlers')))}`,
);
console.log(
  `clients/typescript/src: ${rel(await generateClientPackage(doc, path.join(root, 'clients/typescript/src')))}`,
);
console.log(
  `clients/python/svc_node_client: ${rel(generatePythonClient(doc, path.join(root, 'clients/python/svc_node_client')))}`,
);
await generateDocs(doc, path.join(root, 'docs'));
fs.writeFileSync(codegenStampFile, `${JSON.stringify({ inputs, openrpc: hashText(text) }, null, 1)}\n`);
console.log(`openrpc.json and docs: generated (codegen: ${Math.round(performance.now() - started)} ms)`);

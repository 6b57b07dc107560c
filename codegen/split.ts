/**
 * `npm run spec:split [file]`: takes an OpenRPC document (default openrpc.json) into the parts in openrpc/, the
 * spec's source (codegen/spec-parts.ts). For a branch that edited openrpc.json itself: after the split, `git diff
 * openrpc/` shows its change as a change to a namespace's file, and `npm run codegen` composes openrpc.json again.
 * It checks that the parts compose back into the same document.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { composeSpec } from './compose.js';
import type { OpenRpcDocument } from './document.js';
import { PARTS_DIR, splitDocument, writeParts } from './spec-parts.js';
import { tracerRegistry } from './tracers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.resolve(process.argv[2] ?? path.join(root, 'openrpc.json'));
const text = fs.readFileSync(source, 'utf8');
const doc = JSON.parse(text) as OpenRpcDocument;
const written = writeParts(splitDocument(doc, tracerRegistry), path.join(root, PARTS_DIR));
console.log(`${PARTS_DIR}/: ${written.length ? written.map((f) => path.relative(root, f)).join(', ') : 'up to date'}`);
const composed = composeSpec(root).text;
// Split from the root openrpc.json, the parts are now its source: it is written again as codegen writes it.
if (source === path.join(root, 'openrpc.json')) fs.writeFileSync(source, composed);
if (composed === text) console.log(`the parts compose back into ${path.relative(root, source)} byte for byte`);
else if (JSON.stringify(JSON.parse(composed)) === JSON.stringify(doc))
  console.log('the parts compose back into the same document (formatted as codegen writes it)');
else
  console.log(
    'the parts compose back into the same document but for the order of the tracers in GethTraceConfig (the order tracers.ts imports them)',
  );

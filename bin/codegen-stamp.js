// Whether `npm run codegen`'s output is current, decided by content (as bin/build.js decides for dist/): the stamp
// holds a hash of everything codegen reads, and of the openrpc.json it wrote. bin/build.js runs codegen (at
// `prepare`, `prepack`, before each start in a checkout and before the tests) only when the hash changed or an
// output is missing: ~50 ms to check, ~6 s to generate.
//
// Inputs: the spec's parts (openrpc/), the generator (codegen/, with the docs' guides and assets), the tracer
// registry (src/chain/trace/: the spec's tracer enum comes from it) and the `export` lines of src/handlers/ (a new
// handler file is picked up by the generated handler table).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const packageRoot = fileURLToPath(new URL('../', import.meta.url));
export const codegenStampFile = join(packageRoot, 'src', 'generated', '.codegen-stamp.json');

/** What codegen writes and nothing in git holds: a checkout without them (a fresh clone) must generate them. */
export const CODEGEN_OUTPUTS = [
  'openrpc.json',
  'src/generated/openrpc.ts',
  'src/generated/types.ts',
  'src/generated/validators.js',
  'src/generated/registry.ts',
  'src/generated/handlers.ts',
  'src/handlers/methods.generated.ts',
  'clients/typescript/src/index.ts',
  'clients/typescript/src/client.ts',
  'clients/python/svc_node_client/client.py',
  'docs/index.html',
];

function files(dir, keep = () => true, out = []) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files(path, keep, out);
    else if (keep(entry.name)) out.push(path);
  }
  return out.sort();
}

export const hashText = (text) => createHash('sha1').update(text).digest('hex');

/** One hash over codegen's inputs. */
export function codegenInputsHash(root = packageRoot) {
  const hash = createHash('sha1');
  const add = (file, text) => hash.update(`${relative(root, file).split(sep).join('/')}\0${text}\0`);
  add(fileURLToPath(import.meta.url), readFileSync(fileURLToPath(import.meta.url)));
  for (const file of files(join(root, 'openrpc'))) add(file, readFileSync(file));
  for (const file of files(join(root, 'codegen'))) add(file, readFileSync(file));
  for (const file of files(join(root, 'src', 'chain', 'trace'), (n) => n.endsWith('.ts')))
    add(file, readFileSync(file));
  const handlers = (n) => n.endsWith('.ts') && !n.endsWith('.test.ts') && !n.endsWith('.generated.ts');
  for (const file of files(join(root, 'src', 'handlers'), handlers)) {
    const exports = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('export '));
    add(file, exports.join('\n'));
  }
  return hash.digest('hex');
}

export function readCodegenStamp() {
  try {
    return JSON.parse(readFileSync(codegenStampFile, 'utf8'));
  } catch {
    return {};
  }
}

/** True when every output exists, the inputs are those of the last run and openrpc.json is the one it wrote. */
export function codegenIsCurrent(root = packageRoot) {
  if (!existsSync(join(root, 'openrpc'))) return true; // an installed package: its generated files were packed
  if (CODEGEN_OUTPUTS.some((file) => !existsSync(join(root, file)))) return false;
  const stamp = readCodegenStamp();
  return (
    stamp.inputs === codegenInputsHash(root) && stamp.openrpc === hashText(readFileSync(join(root, 'openrpc.json')))
  );
}

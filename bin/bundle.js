// Bundles the compiled node (dist/main.js and what it imports) into dist/bundle/ with esbuild, which `svc-node`
// then starts from. Why: a cold start from dist/ spends most of its time resolving, reading and linking ~600 ES
// modules one by one; one bundle (plus a chunk per lazily loaded part) is a few files (issue 16, item 4).
//
// Kept outside the bundle, loaded from node_modules as before:
// - native add-ons (classic-level, secp256k1, keccak): they find their binaries next to their own files;
// - packages loaded only after the first answer (the MCP SDK, prom-client): a bundle would not make the start
//   faster, and prom-client's CommonJS exports do not survive esbuild's dynamic-import interop;
// - tsx (only the fallback that runs the sources).
//
// Two rewrites keep the bundled code finding what it found in dist/:
// - `import.meta.url` in a bundled file becomes the URL that file has in dist/, so what it finds beside it (worker
//   entries, docs/) is found as before;
// - src/chain/exec/evm-interpreter.ts reaches @ethereumjs/evm's unexported Interpreter class by file, at run time;
//   in the bundle that would load a second copy of the EVM, so there it imports the same file statically and the
//   bundle holds one copy, the one whose prototype the call time limit and the jump-analysis cache wrap.
//
// Each output file is written aside and renamed, and a build's output is the same bytes for the same input, so
// two nodes starting at once never import a half-written file. Chunks of earlier builds stay for a day: a node
// still running from one may yet import its lazy chunks.
//
// The bundle is stale when its stamp (dist/bundle/.stamp) differs from a hash of what it was built from: the build
// stamp (bin/build.js: the hash of every source dist/ was compiled from), the installed packages' lockfile and this
// file. Content, never mtimes: an installed package's files all carry their extraction time.
//
//   node bin/bundle.js          bundle when dist/ or node_modules changed since the last bundle
//   node bin/bundle.js --prune  then delete earlier bundles' files (what `npm pack` runs)
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildStampFile, mtimeOf, sourceMapsWanted, writeAtomically } from './fs-util.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const distDir = join(root, 'dist');
const bundleDir = join(distDir, 'bundle');
export const bundleEntry = join(bundleDir, 'main.js');
const bundleStampFile = join(bundleDir, '.stamp');
/** npm rewrites this on every install, so a dependency update makes the bundle stale. */
const installStamp = join(root, 'node_modules', '.package-lock.json');

/**
 * Worker-thread entries bundled too (src/chain/workers/spawn.ts starts these from the bundle when the node runs from
 * it): each worker otherwise resolves, reads and links its few hundred modules one by one, about a second of CPU per
 * worker at start, and keeps them all in memory. Code splitting gives each entry only the modules it reaches (a chunk
 * holds the modules of exactly one set of entries), so the seal-check worker still loads none of the engine's narrower
 * execution paths; `checkWorkerGraphs` below makes the bundle fail if it ever did.
 */
export const WORKER_ENTRIES = [
  'chain/exec/seal-check-worker',
  'chain/exec/call-worker',
  'chain/txpool/sender-recovery-worker',
];

/** Modules that patch or replace @ethereumjs's execution (test/chain/engine/seal-check.test.ts lists them too). */
const NARROW_PATHS =
  /\/chain\/(exec\/(call-deadline|sync-step|sender-address|jump-analysis-cache|call-frames|call-opcodes|call-journal|plain-transfers|flat-state|warm-state|block-runner|step-probe)|view\/state-view)\.js$/;

const EXTERNAL = ['classic-level', 'level', 'secp256k1', 'keccak', '@modelcontextprotocol/sdk', 'prom-client', 'tsx'];
const STALE_CHUNK_MS = 24 * 60 * 60 * 1000;

const contentOf = (path) => (existsSync(path) ? readFileSync(path) : '');

/** The hash the bundle's stamp holds when it was built from what is there now. */
function inputsHash() {
  const hash = createHash('sha1');
  for (const file of [buildStampFile, installStamp, fileURLToPath(import.meta.url)])
    hash.update(contentOf(file)).update('\0');
  return hash.update(sourceMapsWanted() ? 'maps' : '').digest('hex');
}

/** True when there is no bundle, or dist/'s sources, the installed packages or this file changed since it was built. */
export function bundleIsStale() {
  return !existsSync(bundleEntry) || String(contentOf(bundleStampFile)) !== inputsHash();
}

const interpreterLoader = join(distDir, 'chain', 'exec', 'evm-interpreter.js');

/** esbuild plugin: the Interpreter class from the bundled @ethereumjs/evm itself (see the top of this file). */
const bundledInterpreter = {
  name: 'bundled-interpreter',
  setup(build) {
    build.onLoad({ filter: /evm-interpreter\.js$/ }, (args) => {
      if (args.path !== interpreterLoader) return undefined;
      // The run-time loader this replaces must still be the one described above, or the rewrite is stale.
      if (!readFileSync(args.path, 'utf8').includes("import.meta.resolve('@ethereumjs/evm')")) {
        throw new Error(
          `${args.path} no longer loads the Interpreter by file next to @ethereumjs/evm: update bin/bundle.js`,
        );
      }
      const file = fileURLToPath(new URL('./interpreter.js', import.meta.resolve('@ethereumjs/evm')));
      return {
        contents: `import * as evmInterpreter from ${JSON.stringify(file)};\nexport async function interpreterPrototype() {\n  return evmInterpreter.Interpreter?.prototype;\n}\n`,
        loader: 'js',
        resolveDir: dirname(file),
      };
    });
  },
};

/** esbuild plugin: `import.meta.url` in a file under dist/ becomes that file's own URL, relative to the chunk. */
const keepModuleUrls = {
  name: 'keep-module-urls',
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(distDir + sep)) return undefined;
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const fromChunk = relative(bundleDir, args.path).split(sep).join('/');
      return {
        contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromChunk)}, import.meta.url).href`),
        loader: 'js',
      };
    });
  },
};

/**
 * Bundles when stale (or `force`). Returns the bundle entry's file URL, or undefined when esbuild cannot be loaded
 * (it comes with tsx, a dependency, so only a broken install: svc-node then starts from dist/ as it is).
 */
export async function bundle({ force = false } = {}) {
  if (!force && !bundleIsStale()) return pathToFileURL(bundleEntry).href;
  const inputs = inputsHash();
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    return undefined;
  }
  let result;
  try {
    result = await esbuild.build({
      entryPoints: {
        main: join(distDir, 'main.js'),
        // Beside main.js (a file's rewritten `import.meta.url` is relative to the bundle's folder): by base name.
        ...Object.fromEntries(WORKER_ENTRIES.map((path) => [path.split('/').pop(), join(distDir, `${path}.js`)])),
      },
      metafile: true,
      outdir: bundleDir,
      bundle: true,
      // Lazily imported parts (peering, MCP) in chunks of their own: one file with everything starts ~40% slower.
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external: EXTERNAL,
      // Only when asked (SVC_NODE_SOURCE_MAPS=1, bin/fs-util.js): a tarball carries what is here.
      sourcemap: sourceMapsWanted() ? 'linked' : false,
      // Without comments and indentation: each start decodes and compiles the chunks it loads (~6 MB as written), and
      // a third of those bytes were whitespace and comments, some of them non-ASCII (UTF-8 text decodes, and V8 scans
      // it as two-byte text, slower than ASCII). Names and syntax stay as written (stack traces, `constructor.name`).
      minifyWhitespace: true,
      write: false,
      logLevel: 'silent',
      plugins: [bundledInterpreter, keepModuleUrls],
      // CommonJS packages inside the bundle call require() for node: built-ins.
      banner: {
        js: "import { createRequire as __svcNodeCreateRequire } from 'node:module'; const require = __svcNodeCreateRequire(import.meta.url);",
      },
    });
  } finally {
    // esbuild builds in a child process of its own, which would otherwise live as long as the node does.
    await esbuild.stop();
  }
  checkWorkerGraphs(result.metafile);
  mkdirSync(bundleDir, { recursive: true });
  const written = new Set();
  // The entry last: it names the chunks, which must all be in place before anyone imports it.
  const files = [...result.outputFiles].sort((a, b) => Number(a.path === bundleEntry) - Number(b.path === bundleEntry));
  for (const file of files) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeAtomically(file.path, file.contents);
    written.add(file.path);
  }
  // Last, once every file it vouches for is in place.
  writeAtomically(bundleStampFile, inputs);
  const now = Date.now();
  for (const name of readdirSync(bundleDir)) {
    const path = join(bundleDir, name);
    if (written.has(path) || path === bundleStampFile) continue;
    // No node loads a map, so those of a build with maps go at once; chunks stay their day.
    if (name.endsWith('.map') || now - mtimeOf(path) > STALE_CHUNK_MS) unlinkSync(path);
  }
  return pathToFileURL(bundleEntry).href;
}

/** The seal-check worker's bundled files (its entry and every chunk it imports) hold none of the narrow paths. */
export function checkWorkerGraphs(metafile) {
  const outputs = metafile.outputs;
  const entryOf = (name) =>
    Object.keys(outputs).find((out) => outputs[out].entryPoint?.endsWith(`dist/${name}.js`) === true);
  const start = entryOf('chain/exec/seal-check-worker');
  if (start === undefined) throw new Error('the bundle has no seal-check worker entry');
  const seen = new Set([start]);
  for (const out of seen) for (const { path } of outputs[out].imports) if (outputs[path] !== undefined) seen.add(path);
  for (const out of seen)
    for (const input of Object.keys(outputs[out].inputs))
      if (NARROW_PATHS.test(input))
        throw new Error(`the bundled seal-check worker would load ${input}, a narrow execution path (bin/bundle.js)`);
}

/**
 * Deletes what no entry reaches through its imports of sibling files (static or dynamic): earlier builds' chunks,
 * kept a day for nodes still running from them. Packing runs it (`prepack`), so a tarball carries one build, not
 * every build of the day (each ~8 MB). Returns how many files went.
 */
export function pruneUnreachable() {
  const reached = new Set(['main.js', ...WORKER_ENTRIES.map((path) => `${path.split('/').pop()}.js`)]);
  // A Set visits what is added while it is iterated: the imports of imports.
  for (const name of reached)
    for (const [, dep] of readFileSync(join(bundleDir, name), 'utf8').matchAll(/["']\.\/([\w.-]+\.js)["']/g))
      reached.add(dep);
  let removed = 0;
  for (const name of readdirSync(bundleDir)) {
    if (name === '.stamp' || reached.has(name) || reached.has(name.replace(/\.map$/, ''))) continue;
    unlinkSync(join(bundleDir, name));
    removed++;
  }
  return removed;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  const entry = await bundle({ force: process.argv.includes('--force') });
  if (entry && process.argv.includes('--prune'))
    process.stdout.write(`svc-node: removed ${pruneUnreachable()} file(s) of earlier bundles from dist/bundle/\n`);
  process.stdout.write(
    entry
      ? `svc-node: bundle up to date in dist/bundle/ (${Math.round(performance.now() - started)} ms)\n`
      : 'svc-node: esbuild cannot be loaded, so there is no bundle; svc-node starts from dist/\n',
  );
}

#!/usr/bin/env node
// Compiles src/ into the JavaScript that `svc-node` (and `npm start`) runs: dist/<same path>.js plus a source map,
// one file at a time with TypeScript's transpileModule, no type checking (`npm run typecheck` does that; tsx, which
// ran the sources before, compiled the same way, so the code is known to compile file by file). Only sources newer
// than their output are compiled again, so a run after an edit takes milliseconds, the first ~3 s.
//
//   node bin/build.js          compile what changed, then bundle if needed (bin/bundle.js); what `npm install` runs,
//                              as the `prepare` script
//   node bin/build.js --all    compile everything
//
// `npm run build` (tsc with type checking, ~12 s) also writes declarations; packing runs it. Its JavaScript for every
// .ts source is byte for byte what this writes; the generated validators (already JavaScript) are copied as they are.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mtimeOf, writeAtomically } from './fs-util.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const srcDir = join(root, 'src');
const distDir = join(root, 'dist');

/** Source files that have JavaScript output (declarations and tests have none). */
function sources(dir = srcDir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sources(path, out);
    else if (/\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const outputOf = (src) => join(distDir, relative(srcDir, src)).replace(/\.ts$/, '.js');


/** Sources whose output is missing or older than they are (a stat of each pair: a few ms for the whole tree). */
export function staleSources() {
  return sources().filter((src) => mtimeOf(outputOf(src)) < mtimeOf(src));
}

/** Compiles `files` (default: the stale ones). Throws when TypeScript (a devDependency) is not installed. */
export function build(files = staleSources()) {
  if (files.length === 0) return 0;
  const ts = createRequire(import.meta.url)('typescript');
  // tsconfig.json's target; ES module syntax because package.json says "type": "module" (transpileModule cannot
  // read that, and with module NodeNext it would emit CommonJS).
  const compilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022, sourceMap: true };
  for (const src of files) {
    const out = outputOf(src);
    mkdirSync(dirname(out), { recursive: true });
    // JavaScript sources (the generated validators) are ES modules already: copied as they are.
    if (src.endsWith('.js')) {
      writeAtomically(out, readFileSync(src, 'utf8'));
      continue;
    }
    const { outputText, sourceMapText } = ts.transpileModule(readFileSync(src, 'utf8'), { fileName: src, compilerOptions });
    const map = JSON.parse(sourceMapText);
    map.file = relative(dirname(out), out);
    map.sources = [relative(dirname(out), src)];
    // Written aside and renamed: two nodes starting at once never import a half-written file.
    writeAtomically(`${out}.map`, JSON.stringify(map));
    writeAtomically(out, outputText);
  }
  return files.length;
}

/**
 * Compiles what changed and brings the bundle up to date (this file's command), in a child process because bundling
 * is asynchronous: for callers that must stay synchronous (benchmarks, before their clock starts).
 */
export function buildAndBundleSync() {
  const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`node bin/build.js failed (${run.status}): ${run.stderr}`);
}


if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  try {
    const count = build(process.argv.includes('--all') ? sources() : staleSources());
    process.stdout.write(`svc-node: compiled ${count} source file(s) into dist/ in ${Math.round(performance.now() - started)} ms\n`);
    const { bundle } = await import('./bundle.js');
    const bundled = performance.now();
    const entry = await bundle();
    if (entry) process.stdout.write(`svc-node: bundle up to date in dist/bundle/ (${Math.round(performance.now() - bundled)} ms)\n`);
  } catch (err) {
    // An install without devDependencies (no TypeScript) must not fail: svc-node then runs the sources through tsx.
    if (err?.code !== 'MODULE_NOT_FOUND') throw err;
    process.stdout.write('svc-node: TypeScript is not installed, so dist/ was not compiled; svc-node will run the sources through tsx\n');
  }
}

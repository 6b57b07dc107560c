#!/usr/bin/env node
// Compiles src/ into the JavaScript that `svc-node` (and `npm start`) runs: dist/<same path>.js (plus a source map
// when asked: SVC_NODE_SOURCE_MAPS=1, bin/fs-util.js), one file at a time with TypeScript's transpileModule, no type checking (`npm run typecheck` does that; tsx, which
// ran the sources before, compiled the same way, so the code is known to compile file by file). It also compiles the
// client package (clients/typescript/src/ → dist/, JavaScript and declarations, the same per-file way: its sources
// are written for `isolatedDeclarations`), so `svc-node/client` and `svc-node-client` are typed after any install.
//
// What is stale is decided by content, never by mtimes: dist/.build-stamp.json holds the hash of every source as it
// was compiled (an install from a tarball or git extracts src/ after dist/, so mtimes would call everything stale).
// Only changed sources are compiled again, so a run after an edit takes milliseconds, the first ~3 s.
//
//   node bin/build.js          compile what changed, then bundle if needed (bin/bundle.js); what `npm install` runs,
//                              as the `prepare` script
//   node bin/build.js --all    compile everything
//   node bin/build.js --client compile only the client package (its own `prepare`)
//   node bin/build.js --codegen only bring `npm run codegen`'s output up to date (`npm run typecheck` does it first)
//   SVC_NODE_SOURCE_MAPS=1 node bin/build.js   the same, with source maps beside dist/ and the bundle (also for
//                              `npm pack`, whose tarball otherwise has none)
//
// Every command first runs `npm run codegen` when its inputs changed (bin/codegen-stamp.js): its output (openrpc.json,
// src/generated/, the handler table, the client's sources, the docs pages) is not committed, so a fresh clone gets it
// here, at `npm ci`'s `prepare`; a tarball ships it (`prepack` runs this too).
//
// `npm run build` (tsgo, TypeScript's native compiler, with type checking, ~8 s) also writes the node's declarations;
// packing runs it. Its JavaScript for every .ts source is byte for byte what this writes; the generated validators (already JavaScript) are copied
// as they are.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { codegenIsCurrent } from './codegen-stamp.js';
import { buildStampFile, sourceMapsWanted, writeAtomically } from './fs-util.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const srcDir = join(root, 'src');
const distDir = join(root, 'dist');
const clientSrcDir = join(root, 'clients', 'typescript', 'src');
const clientDistDir = join(root, 'clients', 'typescript', 'dist');
export const stampFile = buildStampFile;

/** True in a git checkout (a clone or worktree); false in an installed package, which never compiles. */
export const isCheckout = () => existsSync(join(root, '.git'));

/** Source files that have JavaScript output (declarations and tests have none). */
function sources(dir = srcDir, out = []) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sources(path, out);
    else if (/\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.test.ts'))
      out.push(path);
  }
  return out;
}

const allSources = () => [...sources(), ...sources(clientSrcDir)];
const isClientSource = (src) => src.startsWith(clientSrcDir + sep);
const outputOf = (src) =>
  (isClientSource(src)
    ? join(clientDistDir, relative(clientSrcDir, src))
    : join(distDir, relative(srcDir, src))
  ).replace(/\.ts$/, '.js');
const declarationOf = (src) => outputOf(src).replace(/\.js$/, '.d.ts');
const keyOf = (src) => relative(root, src).split(sep).join('/');
const hashOf = (text) => createHash('sha1').update(text).digest('hex');
/** A change to how this file compiles (or whether it writes source maps) makes every output stale. */
const compilerHash = hashOf(
  Buffer.concat([readFileSync(fileURLToPath(import.meta.url)), Buffer.from(sourceMapsWanted() ? 'maps' : '')]),
);

function readStamp() {
  try {
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
    return stamp.compiler === compilerHash ? stamp.sources : {};
  } catch {
    return {};
  }
}

/**
 * Sources whose content is not what their output was compiled from, or whose output is missing (hashing the whole
 * tree: ~3 MB, a few tens of ms).
 */
export function staleSources(files = allSources()) {
  const stamp = readStamp();
  return files.filter(
    (src) =>
      stamp[keyOf(src)] !== hashOf(readFileSync(src)) ||
      !existsSync(outputOf(src)) ||
      (isClientSource(src) && !existsSync(declarationOf(src))),
  );
}

/**
 * This package's own TypeScript (a devDependency), never one found further up: from an installed package that
 * would be its user's, of any version (TypeScript 7 has no `ScriptTarget` to compile with).
 */
function ownTypeScript() {
  const dir = join(root, 'node_modules', 'typescript');
  if (!existsSync(join(dir, 'package.json'))) {
    throw Object.assign(new Error("Cannot find module 'typescript' in this package's node_modules"), {
      code: 'MODULE_NOT_FOUND',
    });
  }
  return createRequire(import.meta.url)(dir);
}

/** Compiles `files` (default: the stale ones). Throws when TypeScript (a devDependency) is not installed. */
export function build(files = staleSources()) {
  if (files.length === 0) return 0;
  const ts = ownTypeScript();
  // tsconfig.json's target; ES module syntax because package.json says "type": "module" (transpileModule cannot
  // read that, and with module NodeNext it would emit CommonJS).
  const maps = sourceMapsWanted();
  const compilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022, sourceMap: maps };
  const stamp = readStamp();
  for (const src of files) {
    const out = outputOf(src);
    const text = readFileSync(src, 'utf8');
    mkdirSync(dirname(out), { recursive: true });
    if (src.endsWith('.js')) {
      // JavaScript sources (the generated validators) are ES modules already: copied as they are (a map beside one
      // is `npm run build`'s, when asked).
      if (!maps) rmSync(`${out}.map`, { force: true });
      writeAtomically(out, text);
    } else if (isClientSource(src)) {
      // The client package is published on its own: no source maps pointing into a tree its users do not have.
      const options = { ...compilerOptions, sourceMap: false, declaration: true, isolatedDeclarations: true };
      const declaration = ts.transpileDeclaration(text, {
        fileName: src,
        compilerOptions: options,
        reportDiagnostics: true,
      });
      if (declaration.diagnostics?.length) {
        const messages = declaration.diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
        throw new Error(
          `${keyOf(src)}: no declarations without type checking (isolatedDeclarations): ${messages.join('; ')}`,
        );
      }
      writeAtomically(declarationOf(src), declaration.outputText);
      writeAtomically(out, ts.transpileModule(text, { fileName: src, compilerOptions: options }).outputText);
    } else {
      const { outputText, sourceMapText } = ts.transpileModule(text, { fileName: src, compilerOptions });
      if (maps) {
        const map = JSON.parse(sourceMapText);
        map.file = relative(dirname(out), out);
        map.sources = [relative(dirname(out), src)];
        // Written aside and renamed: two nodes starting at once never import a half-written file.
        writeAtomically(`${out}.map`, JSON.stringify(map));
      } else rmSync(`${out}.map`, { force: true }); // one from a build with maps would be packed
      writeAtomically(out, outputText);
    }
    stamp[keyOf(src)] = hashOf(text);
  }
  // Sorted, so the same sources give the same stamp bytes (bin/bundle.js keys the bundle on them).
  const sorted = Object.fromEntries(Object.entries(stamp).sort(([a], [b]) => (a < b ? -1 : 1)));
  mkdirSync(distDir, { recursive: true });
  writeAtomically(stampFile, `${JSON.stringify({ compiler: compilerHash, sources: sorted }, null, 1)}\n`);
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

/**
 * Runs `npm run codegen` (codegen/index.ts through tsx) when its output is missing or stale; in a checkout only (an
 * installed package has no codegen/ and ships the output). Returns whether it ran.
 */
export function codegenIfStale() {
  if (!existsSync(join(root, 'codegen')) || codegenIsCurrent(root)) return false;
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'codegen', 'index.ts')], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (run.status !== 0) throw new Error(`npm run codegen failed (${run.status})`);
  return true;
}

/**
 * Compiles the native Ethash add-on (src/chain/pow/ethash-native.ts: native/ethash/ with the system's C compiler)
 * when no build of its sources exists for this CPU. Never fails the build: without a compiler, Node-API headers or
 * dist/, the node hashes in WebAssembly (and tries the add-on again on first use).
 */
async function buildNativeEthash() {
  if (process.env.SVC_ETHASH_NATIVE === '0') return;
  const started = performance.now();
  try {
    const native = await import(pathToFileURL(join(distDir, 'chain', 'pow', 'ethash-native.js')).href);
    const { path, built } = native.buildNativeEthash();
    if (built)
      process.stdout.write(
        `svc-node: compiled the native Ethash add-on into ${relative(root, path)} in ${Math.round(performance.now() - started)} ms\n`,
      );
  } catch (err) {
    process.stdout.write(`svc-node: no native Ethash add-on (${err?.message}); Ethash runs in WebAssembly\n`);
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  try {
    if (codegenIfStale())
      process.stdout.write(
        `svc-node: generated openrpc.json, src/generated/, clients/typescript/src/ and docs/ from openrpc/ in ${Math.round(performance.now() - started)} ms\n`,
      );
    if (process.argv.includes('--codegen')) process.exit(0);
    if (process.argv.includes('--client')) {
      const count = build(staleSources(sources(clientSrcDir)));
      process.stdout.write(`svc-node: compiled ${count} client source file(s) into clients/typescript/dist/\n`);
      process.exit(0);
    }
    const count = build(process.argv.includes('--all') ? allSources() : staleSources());
    process.stdout.write(
      `svc-node: compiled ${count} source file(s) into dist/ in ${Math.round(performance.now() - started)} ms\n`,
    );
    await buildNativeEthash();
    const { bundle } = await import('./bundle.js');
    const bundled = performance.now();
    const entry = await bundle();
    if (entry)
      process.stdout.write(
        `svc-node: bundle up to date in dist/bundle/ (${Math.round(performance.now() - bundled)} ms)\n`,
      );
  } catch (err) {
    // An install without devDependencies (no TypeScript) must not fail: svc-node then runs the sources through tsx.
    if (err?.code !== 'MODULE_NOT_FOUND') throw err;
    process.stdout.write(
      'svc-node: TypeScript is not installed, so dist/ was not compiled; svc-node will run the sources through tsx\n',
    );
  }
}

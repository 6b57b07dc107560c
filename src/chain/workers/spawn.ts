/**
 * Starts a worker thread from a module that sits beside its caller, whether the caller runs from the
 * TypeScript sources (tsx, vitest) or from the compiled JavaScript in dist/.
 *
 * Node 20 does not apply a parent's `--import tsx` hooks to a worker's entry file. So when the caller
 * is itself a .ts file the worker starts from a tiny eval'd bootstrap that registers tsx's ESM hooks
 * inside the worker and then imports the .ts entry; compiled output loads the .js entry directly.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** Options passed through to `new Worker`; `eval` and `execArgv` are decided here. */
export type ModuleWorkerOptions = Omit<WorkerOptions, 'eval' | 'execArgv'>;

let tsxApiUrl: string | undefined;

/** file: URL of tsx's ESM register API, found through its package.json `exports` (resolved once). */
function tsxEsmApiUrl(): string {
  if (tsxApiUrl !== undefined) return tsxApiUrl;
  const require = createRequire(import.meta.url);
  const packageJsonPath = require.resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as {
    exports: Record<string, { import?: { default?: string } } | string>;
  };
  const entry = pkg.exports['./esm/api'];
  const relative = typeof entry === 'object' ? entry.import?.default : undefined;
  if (relative === undefined)
    throw new Error('cannot locate tsx/esm/api to run a worker thread from TypeScript sources');
  tsxApiUrl = pathToFileURL(join(dirname(packageJsonPath), relative)).href;
  return tsxApiUrl;
}

/**
 * Spawns the worker module `entryName` (file name without extension) that lives in the same folder as
 * `callerUrl` (pass `import.meta.url`). The extension follows the caller's: .ts from sources, .js when compiled.
 */
export function spawnSiblingWorker(callerUrl: string, entryName: string, options: ModuleWorkerOptions = {}): Worker {
  if (!callerUrl.endsWith('.ts'))
    return new Worker(bundledEntry(entryName) ?? new URL(`./${entryName}.js`, callerUrl), options);
  const built = vouchedBuiltEntry(callerUrl, entryName);
  if (built !== undefined) return new Worker(built, { ...options, execArgv: [] });
  const entry = new URL(`./${entryName}.ts`, callerUrl).href;
  const bootstrap =
    `import(${JSON.stringify(tsxEsmApiUrl())})` +
    `.then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { ...options, eval: true, execArgv: [] });
}

/**
 * The worker entry bundled beside this module's own file, when this module runs from the node's bundle (bin/bundle.js
 * bundles the worker entries the dev node starts into its folder, by base name); undefined in dist/ as compiled, which
 * has no such file beside this one. A caller's `import.meta.url` names its file in dist/ even inside the bundle.
 */
function bundledEntry(entryName: string): URL | undefined {
  const here = import.meta.dirname;
  if (here === undefined || basename(here) !== 'bundle') return undefined;
  const file = join(here, `${basename(entryName)}.js`);
  return existsSync(file) ? pathToFileURL(file) : undefined;
}

/**
 * The compiled worker entry for a caller running from the TypeScript sources, when its runner vouches that dist/ and
 * its bundle were just built from these sources (`SVC_NODE_WORKERS_FROM_BUILD=1`: vitest.config.ts sets it, its
 * global setup builds first): the bundle's entry (bin/bundle.js `WORKER_ENTRIES`), else the entry in dist/ (the
 * Ethash workers). The same code, compiled: a seal-check worker loads in ~0.25 s of CPU from the bundle where tsx's
 * hooks in a fresh worker take ~1.9 s, and a test run starts many workers.
 */
function vouchedBuiltEntry(callerUrl: string, entryName: string): URL | undefined {
  if (process.env.SVC_NODE_WORKERS_FROM_BUILD !== '1') return undefined;
  const src = new URL('../../', import.meta.url).href;
  if (!callerUrl.startsWith(src)) return undefined;
  const bundled = new URL(`../../../dist/bundle/${basename(entryName)}.js`, import.meta.url);
  if (existsSync(bundled)) return bundled;
  const compiled = new URL(
    `./${entryName}.js`,
    new URL(`../../../dist/${callerUrl.slice(src.length)}`, import.meta.url),
  );
  return existsSync(compiled) ? compiled : undefined;
}

/**
 * Runs cache-worker in a worker thread, from TypeScript sources (tsx, vitest) or from compiled JS alike.
 *
 * Node 20 does not apply a parent's `--import tsx` hooks to a worker's entry file, so when this module is
 * itself a .ts file the worker starts from a tiny eval'd bootstrap that registers tsx's ESM hooks in the
 * worker and then imports cache-worker.ts. Compiled output (.js) loads cache-worker.js directly.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

const runningFromTypeScript = import.meta.url.endsWith('.ts');

function tsxEsmApiUrl(): string {
  const require = createRequire(import.meta.url);
  const packageJsonPath = require.resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as {
    exports: Record<string, { import?: { default?: string } } | string>;
  };
  const entry = pkg.exports['./esm/api'];
  const relative = typeof entry === 'object' ? entry.import?.default : undefined;
  if (relative === undefined) throw new Error('cannot locate tsx/esm/api to run the Ethash cache worker from TypeScript');
  return pathToFileURL(join(dirname(packageJsonPath), relative)).href;
}

function spawnWorker(job: { epoch: number; epochLength: number }): Worker {
  if (!runningFromTypeScript) {
    return new Worker(new URL('./cache-worker.js', import.meta.url), { workerData: job });
  }
  const entry = new URL('./cache-worker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsxEsmApiUrl())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true, workerData: job, execArgv: [] });
}

/** Builds the epoch's cache in a worker thread; resolves with its words (the buffer is transferred, not copied). */
export function buildCacheInWorker(epoch: number, epochLength: number): Promise<Uint32Array> {
  return new Promise((resolve, reject) => {
    const worker = spawnWorker({ epoch, epochLength });
    let settled = false;
    worker.once('message', (buffer: ArrayBuffer) => {
      settled = true;
      resolve(new Uint32Array(buffer));
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`Ethash cache worker for epoch ${epoch} exited with code ${code} before replying`));
    });
  });
}

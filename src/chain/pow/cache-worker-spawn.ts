/**
 * Runs cache-worker in a worker thread, from TypeScript sources (tsx, vitest) or from compiled JS alike
 * (see workers/spawn.ts for how).
 */
import type { Worker } from 'node:worker_threads';
import { spawnSiblingWorker } from '../workers/spawn.js';

function spawnWorker(job: { epoch: number; epochLength: number }): Worker {
  return spawnSiblingWorker(import.meta.url, 'cache-worker', { workerData: job });
}

/**
 * Builds the epoch's cache in a worker thread; resolves with its words (the buffer is transferred, not copied).
 * `onProgress` receives the worker's progress reports (see buildCache).
 */
export function buildCacheInWorker(
  epoch: number,
  epochLength: number,
  onProgress?: (done: number, total: number) => void,
): Promise<Uint32Array> {
  return new Promise((resolve, reject) => {
    const worker = spawnWorker({ epoch, epochLength });
    let settled = false;
    worker.on('message', (message: ArrayBuffer | { done: number; total: number }) => {
      if (!(message instanceof ArrayBuffer)) {
        onProgress?.(message.done, message.total);
        return;
      }
      settled = true;
      resolve(new Uint32Array(message));
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled)
        reject(new Error(`Ethash cache worker for epoch ${epoch} exited with code ${code} before replying`));
    });
  });
}

/**
 * Runs cache-worker in a worker thread, from TypeScript sources (tsx, vitest) or from compiled JS alike
 * (see workers/spawn.ts for how).
 */
import type { Worker } from 'node:worker_threads';
import { spawnSiblingWorker } from '../workers/spawn.js';
import { bindCacheMemory } from './light.js';

function spawnWorker(job: { epoch: number; epochLength: number }): Worker {
  return spawnSiblingWorker(import.meta.url, 'cache-worker', { workerData: job });
}

/**
 * Builds the epoch's cache in a worker thread; resolves with its words (a shared memory or a transferred buffer: not copied).
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
    type Message = ArrayBuffer | { done: number; total: number } | { memory: WebAssembly.Memory; bytes: number };
    worker.on('message', (message: Message) => {
      if (message instanceof ArrayBuffer) {
        settled = true;
        resolve(new Uint32Array(message));
      } else if ('memory' in message) {
        settled = true;
        // Bound here too: this thread hashes in the memory the worker built (and shares it with the seal workers).
        resolve(bindCacheMemory(message.memory, message.bytes));
      } else onProgress?.(message.done, message.total);
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

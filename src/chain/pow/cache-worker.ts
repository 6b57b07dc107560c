/**
 * Worker-thread entry that builds one epoch's verification cache and transfers it back (no copy).
 * Spawned by cache-store.ts; workerData = { epoch, epochLength }.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildCache } from './cache.js';
import { cacheSize, seedHash } from './epoch.js';
import { loadKeccak } from '../base/keccak.js';

const { epoch, epochLength } = workerData as { epoch: number; epochLength: number };
await loadKeccak();
// Progress goes back as { done, total } messages; the finished cache as its ArrayBuffer.
const cache = buildCache(cacheSize(epoch), seedHash(epoch, epochLength), (done, total) =>
  parentPort?.postMessage({ done, total }),
);
// buildCache allocates a plain (non-shared) ArrayBuffer, which can be transferred.
const buffer = cache.buffer as ArrayBuffer;
parentPort?.postMessage(buffer, [buffer]);

/**
 * Worker-thread entry that builds one epoch's verification cache and hands it back without a copy.
 * Spawned by cache-store.ts; workerData = { epoch, epochLength }.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { cacheSize, seedHash } from './epoch.js';
import { loadKeccak } from '../base/keccak.js';
import { buildCacheFast, memoryOf } from './light.js';

const { epoch, epochLength } = workerData as { epoch: number; epochLength: number };
await loadKeccak();
// Progress goes back as { done, total } messages; the finished cache as its shared WebAssembly memory (built in
// WebAssembly) or as its transferred ArrayBuffer (built by the TypeScript reference).
const cache = buildCacheFast(cacheSize(epoch), seedHash(epoch, epochLength), (done, total) =>
  parentPort?.postMessage({ done, total }),
);
const memory = memoryOf(cache);
if (memory !== undefined) parentPort?.postMessage({ memory, bytes: cache.byteLength });
else {
  const buffer = cache.buffer as ArrayBuffer;
  parentPort?.postMessage(buffer, [buffer]);
}

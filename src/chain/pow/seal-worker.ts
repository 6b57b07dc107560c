/**
 * Worker-thread entry that checks seals (spawned by seal-pool.ts; workerData.slot = its scratch slot in shared cache
 * memories). Epoch caches arrive once per epoch as shared memory, so every worker reads the one copy the main thread
 * holds; jobs name the epoch they need.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadKeccak } from '../base/keccak.js';
import { bindCacheMemory, setThreadSlot } from './light.js';
import { unpackSeals } from './packed-seals.js';
import { checkSeals, type SealInput } from './seal.js';

/** An epoch's cache as threads share it: inside a WebAssembly cache memory when that path runs, else a plain SAB. */
export interface SharedCache {
  readonly memory?: WebAssembly.Memory;
  readonly buffer: SharedArrayBuffer;
  readonly byteOffset: number;
  readonly words: number;
}

export type SealWorkerMessage =
  | { readonly kind: 'cache'; readonly key: string; readonly cache: SharedCache }
  | { readonly kind: 'drop'; readonly key: string }
  | {
      readonly kind: 'verify';
      readonly id: number;
      readonly key: string;
      readonly fullSize: number;
      /** The seals as objects, or packed (packed-seals.ts: moved, not copied). */
      readonly seals: readonly SealInput[] | Uint8Array;
    };

export interface SealWorkerReply {
  readonly id: number;
  /** One per seal: true, or why it is invalid. */
  readonly verdicts: (true | string)[];
}

setThreadSlot((workerData as { slot?: number } | undefined)?.slot ?? 1);
await loadKeccak();
const caches = new Map<string, Uint32Array>();
parentPort?.on('message', (message: SealWorkerMessage) => {
  if (message.kind === 'cache') {
    const { memory, buffer, byteOffset, words } = message.cache;
    // Bound to the memory, checkSeal hashes it in WebAssembly in this thread's slot; otherwise the reference reads it.
    caches.set(
      message.key,
      memory !== undefined ? bindCacheMemory(memory, words * 4) : new Uint32Array(buffer, byteOffset, words),
    );
  } else if (message.kind === 'drop') caches.delete(message.key);
  else {
    const cache = caches.get(message.key);
    const seals = message.seals instanceof Uint8Array ? unpackSeals(message.seals) : message.seals;
    const verdicts =
      cache === undefined
        ? seals.map(() => `no Ethash cache for epoch ${message.key} in the seal worker`)
        : checkSeals(cache, message.fullSize, seals).map((check) => (check.valid ? true : check.message));
    parentPort?.postMessage({ id: message.id, verdicts } satisfies SealWorkerReply);
  }
});
parentPort?.postMessage('ready');

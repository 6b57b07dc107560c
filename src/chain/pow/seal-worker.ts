/**
 * Worker-thread entry that checks seals (spawned by seal-pool.ts). Epoch caches arrive once per epoch as a
 * SharedArrayBuffer, so every worker reads the one copy the main thread holds; jobs name the epoch they need.
 */
import { parentPort } from 'node:worker_threads';
import { loadKeccak } from '../base/keccak.js';
import { checkSeal, type SealInput } from './seal.js';

export type SealWorkerMessage =
  | { readonly kind: 'cache'; readonly key: string; readonly buffer: SharedArrayBuffer }
  | { readonly kind: 'drop'; readonly key: string }
  | {
      readonly kind: 'verify';
      readonly id: number;
      readonly key: string;
      readonly fullSize: number;
      readonly seals: readonly SealInput[];
    };

export interface SealWorkerReply {
  readonly id: number;
  /** One per seal: true, or why it is invalid. */
  readonly verdicts: (true | string)[];
}

await loadKeccak();
const caches = new Map<string, Uint32Array>();
parentPort?.on('message', (message: SealWorkerMessage) => {
  if (message.kind === 'cache') caches.set(message.key, new Uint32Array(message.buffer));
  else if (message.kind === 'drop') caches.delete(message.key);
  else {
    const cache = caches.get(message.key);
    const verdicts = message.seals.map((seal): true | string => {
      if (cache === undefined) return `no Ethash cache for epoch ${message.key} in the seal worker`;
      const check = checkSeal(cache, message.fullSize, seal);
      return check.valid ? true : check.message;
    });
    parentPort?.postMessage({ id: message.id, verdicts } satisfies SealWorkerReply);
  }
});
parentPort?.postMessage('ready');

/**
 * Worker threads that check Ethash seals in parallel. One shared copy of each epoch's cache (the WebAssembly memory the
 * main thread hashes it in, or a SharedArrayBuffer without WebAssembly) is shared by all workers (handed over once per worker and epoch); a batch is split into one contiguous slice per worker
 * and the verdicts come back in the batch's order. A worker keeps the process alive only while it has work: an idle
 * pool does not hold a process open.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { spawnSiblingWorker } from '../workers/spawn.js';
import { WASM_SLOTS } from './ethash-wasm.js';
import { packSeals } from './packed-seals.js';
import type { SealInput } from './seal.js';
import type { SealWorkerMessage, SealWorkerReply, SharedCache } from './seal-worker.js';

/** Below this many seals a batch is not worth splitting over more than one worker. */
const MIN_SLICE = 8;

interface Waiter {
  readonly resolve: (verdicts: (true | string)[]) => void;
  readonly reject: (error: Error) => void;
}

interface PoolWorker {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  readonly caches: Set<string>;
  readonly waiting: Map<number, Waiter>;
  failed?: Error;
  busy: number;
}

export class SealWorkerPool {
  private readonly workers: PoolWorker[] = [];
  private nextId = 0;

  constructor(readonly size = Math.max(1, availableParallelism())) {}

  /** Checks `seals` of one epoch (`key`, `cache` shared, `fullSize` its dataset size); throws if a worker dies. */
  async verify(
    key: string,
    cache: SharedCache,
    fullSize: number,
    seals: readonly SealInput[],
  ): Promise<(true | string)[]> {
    if (seals.length === 0) return [];
    const count = Math.min(this.size, Math.ceil(seals.length / MIN_SLICE));
    const per = Math.ceil(seals.length / count);
    const slices = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        this.run(this.worker(i), key, cache, fullSize, seals.slice(i * per, (i + 1) * per)),
      ),
    );
    return slices.flat();
  }

  /** Starts every worker now, ahead of the first batch: their start-up overlaps the caller's own work. */
  start(): void {
    for (let i = 0; i < this.size; i++) this.worker(i);
  }

  /** Forgets an epoch's cache in every worker (the store moved on). */
  drop(key: string): void {
    for (const w of this.workers) {
      if (w.caches.delete(key)) w.worker.postMessage({ kind: 'drop', key } satisfies SealWorkerMessage);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((w) => w.worker.terminate()));
  }

  private async run(
    w: PoolWorker,
    key: string,
    cache: SharedCache,
    fullSize: number,
    seals: readonly SealInput[],
  ): Promise<(true | string)[]> {
    w.busy++;
    w.worker.ref();
    try {
      await w.ready;
      if (w.failed !== undefined) throw w.failed;
      return await this.post(w, key, cache, fullSize, seals);
    } finally {
      if (--w.busy === 0) w.worker.unref();
    }
  }

  private post(
    w: PoolWorker,
    key: string,
    cache: SharedCache,
    fullSize: number,
    seals: readonly SealInput[],
  ): Promise<(true | string)[]> {
    if (!w.caches.has(key)) {
      w.worker.postMessage({ kind: 'cache', key, cache } satisfies SealWorkerMessage);
      w.caches.add(key);
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // A worker that dies with this job queued rejects it (see `fail` below).
      w.waiting.set(id, { resolve, reject });
      const packed = packSeals(seals);
      if (packed === undefined)
        w.worker.postMessage({ kind: 'verify', id, key, fullSize, seals } satisfies SealWorkerMessage);
      else
        w.worker.postMessage({ kind: 'verify', id, key, fullSize, seals: packed } satisfies SealWorkerMessage, [
          packed.buffer,
        ]);
    });
  }

  private worker(index: number): PoolWorker {
    const existing = this.workers[index];
    if (existing !== undefined && existing.failed === undefined) return existing;
    // Slot 0 of a cache memory's scratch is the main thread's; worker i hashes in slot i + 1.
    const worker = spawnSiblingWorker(import.meta.url, 'seal-worker', {
      workerData: { slot: 1 + (index % (WASM_SLOTS - 1)) },
    });
    worker.unref();
    const waiting = new Map<number, Waiter>();
    let markReady: () => void = () => {};
    const ready = new Promise<void>((resolve) => {
      markReady = resolve;
    });
    const w: PoolWorker = { worker, ready, caches: new Set(), waiting, busy: 0 };
    worker.on('message', (reply: SealWorkerReply | 'ready') => {
      if (reply === 'ready') return markReady();
      const done = waiting.get(reply.id);
      waiting.delete(reply.id);
      done?.resolve(reply.verdicts);
    });
    const fail = (error: Error) => {
      w.failed ??= error;
      markReady();
      for (const waiter of waiting.values()) waiter.reject(w.failed);
      waiting.clear();
    };
    worker.once('error', fail);
    worker.once('exit', (code) => fail(new Error(`seal worker exited with code ${code}`)));
    this.workers[index] = w;
    return w;
  }
}

/**
 * Write-behind for the chain database (the instant-seal dev chain's default): a block's batch is queued and the
 * caller goes on at once, so a send is answered when its block is the in-memory head instead of after LevelDB's
 * write. Batches reach LevelDB one at a time in the order they were queued, each still atomic, so a crash loses at
 * most the unwritten tail and the database always holds a consistent head (its head pointer is in the same batch
 * as its block). Until a batch is written its values answer reads from here: nothing in memory can point at a
 * record a read would miss.
 */
import type { WriteOp } from './chain-db.js';

/** Batches queued at most: beyond it a write waits for the oldest, so a burst cannot grow the queue without bound. */
const MAX_QUEUED = 64;

interface Unwritten {
  /** undefined: deleted. */
  readonly value: Uint8Array | undefined;
  /** The batch that wrote it last: only that batch's completion may drop the entry. */
  readonly batch: number;
}

/** A key as a Map key: its bytes as a latin1 string (one char per byte, no copy of the bytes). */
const keyOf = (key: Uint8Array) => Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('latin1');

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class WriteBehindQueue {
  readonly #unwritten = new Map<string, Unwritten>();
  #tail: Promise<void> = Promise.resolve();
  #queued = 0;
  #batches = 0;
  #failure: Error | undefined;

  /** `write` is LevelDB's atomic batch write. */
  constructor(private readonly write: (ops: WriteOp[]) => Promise<void>) {}

  /** Batches queued and not yet written. */
  get queued(): number {
    return this.#queued;
  }

  /**
   * A queued value for `key`: `{ value }` (undefined = deleted) while a batch that holds it is unwritten, else
   * undefined (read LevelDB).
   */
  lookup(key: Uint8Array): { readonly value: Uint8Array | undefined } | undefined {
    if (this.#unwritten.size === 0) return undefined;
    return this.#unwritten.get(keyOf(key));
  }

  /**
   * Queues `ops` behind every earlier batch. Returns at once unless the queue is full; throws once a write
   * failed, since later batches build on the lost one (the in-memory chain is then ahead of the disk for good).
   */
  async enqueue(ops: WriteOp[]): Promise<void> {
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#queued >= MAX_QUEUED) await this.#tail;
    const batch = ++this.#batches;
    for (const op of ops)
      this.#unwritten.set(keyOf(op.key), { value: op.type === 'put' ? op.value : undefined, batch });
    this.#queued++;
    // The next turn of the event loop: the answer that waited for this block is written first, and LevelDB's
    // batch (its copying and the wake-up of a pool thread) runs while the client reads it.
    this.#tail = this.#tail.then(nextTurn).then(async () => {
      try {
        if (this.#failure === undefined) await this.write(ops);
      } catch (err) {
        this.#failure = new Error(`a queued chain database write failed; later blocks are not stored`, {
          cause: err,
        });
      } finally {
        this.#queued--;
        // Failed batches keep their values here: reads stay in step with the in-memory chain.
        if (this.#failure === undefined)
          for (const op of ops) {
            const key = keyOf(op.key);
            if (this.#unwritten.get(key)?.batch === batch) this.#unwritten.delete(key);
          }
      }
    });
  }

  /** Resolves once every batch queued so far is in LevelDB; rejects if one failed. */
  async flushed(): Promise<void> {
    await this.#tail;
    if (this.#failure !== undefined) throw this.#failure;
  }
}

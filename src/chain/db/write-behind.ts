/**
 * Write-behind for the chain database (the instant-seal dev chain's default): a block's batch is queued and the
 * caller goes on at once, so a send is answered when its block is the in-memory head instead of after LevelDB's
 * write. A queued batch is written on the next turn of the event loop (after the answer that waited for its block
 * went out); batches queued while a write is under way are written together after it, as one atomic write (group
 * commit). Writes land one at a time in order: a crash loses at most the unwritten tail and the database always
 * holds a consistent head (each block's head pointer is in the same write as its block). Until a batch is written
 * its values answer reads from here: nothing in memory can point at a record a read would miss.
 *
 * Why groups: each LevelDB write costs the main thread the copying of its operations into the native batch and
 * the wake-up of a thread-pool thread; blocks sealed faster than LevelDB writes them (a burst, a busy machine)
 * share one write instead of queueing one each.
 */
import type { WriteOp } from './chain-db.js';

/** Batches waiting at most: beyond it a write waits for the one under way (a burst cannot grow them unbounded). */
const MAX_WAITING = 64;

interface Unwritten {
  /** undefined: deleted. */
  readonly value: Uint8Array | undefined;
  /** The batch that wrote it last: only the write holding that batch may drop the entry. */
  readonly batch: number;
}

/** A key as a Map key: its bytes as a latin1 string (one char per byte, no copy of the bytes). */
const keyOf = (key: Uint8Array) => Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('latin1');

export class WriteBehindQueue {
  readonly #unwritten = new Map<string, Unwritten>();
  /** Operations of the batches not yet handed to LevelDB, in order. */
  #group: WriteOp[] = [];
  #groupBatches = 0;
  /** A write of the group is scheduled (next turn) or under way. */
  #busy = false;
  /** Batches handed to LevelDB and not written yet. */
  #writing = 0;
  #tail: Promise<void> = Promise.resolve();
  #batches = 0;
  #failure: Error | undefined;

  /** `write` is LevelDB's atomic batch write. */
  constructor(private readonly write: (ops: WriteOp[]) => Promise<void>) {}

  /** Batches queued and not yet written. */
  get queued(): number {
    return this.#groupBatches + this.#writing;
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
   * Queues `ops` behind every earlier batch. Returns at once unless `MAX_WAITING` batches wait (then once the write
   * under way is done); throws once a write failed, since later batches build on the lost one (the in-memory chain
   * is then ahead of the disk for good).
   */
  async enqueue(ops: WriteOp[]): Promise<void> {
    if (this.#failure !== undefined) throw this.#failure;
    const batch = ++this.#batches;
    for (const op of ops) {
      this.#unwritten.set(keyOf(op.key), { value: op.type === 'put' ? op.value : undefined, batch });
      this.#group.push(op);
    }
    this.#groupBatches++;
    if (!this.#busy) {
      this.#busy = true;
      // The next turn of the event loop: the answer that waited for this block is written first.
      setImmediate(() => this.#writeGroup());
    } else if (this.#groupBatches >= MAX_WAITING) await this.#tail;
  }

  /** Hands the waiting batches to LevelDB as one write; batches queued meanwhile follow in the next one. */
  #writeGroup(): void {
    const count = this.#groupBatches;
    if (count === 0) {
      this.#busy = false;
      return;
    }
    const ops = this.#group;
    const last = this.#batches;
    this.#group = [];
    this.#groupBatches = 0;
    this.#writing += count;
    this.#tail = this.#tail.then(async () => {
      try {
        if (this.#failure === undefined) await this.write(ops);
      } catch (err) {
        this.#failure = new Error(`a queued chain database write failed; later blocks are not stored`, {
          cause: err,
        });
      } finally {
        this.#writing -= count;
        // Failed batches keep their values here: reads stay in step with the in-memory chain.
        if (this.#failure === undefined)
          for (const op of ops) {
            const key = keyOf(op.key);
            const entry = this.#unwritten.get(key);
            if (entry !== undefined && entry.batch <= last) this.#unwritten.delete(key);
          }
        this.#writeGroup();
      }
    });
  }

  /** Resolves once every batch queued so far is in LevelDB; rejects if one failed. */
  async flushed(): Promise<void> {
    while (this.#busy) {
      const tail = this.#tail;
      await tail;
      // The scheduled write has not started yet (it starts on the next turn): wait a turn for it.
      if (tail === this.#tail && this.#busy) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    if (this.#failure !== undefined) throw this.#failure;
  }
}

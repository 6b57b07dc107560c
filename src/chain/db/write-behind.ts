/**
 * Write-behind for the chain database (the instant-seal dev chain's default): a block's batch is queued and the
 * caller goes on at once, so a send is answered when its block is the in-memory head instead of after LevelDB's
 * write. Batches queued within `GROUP_MS` of each other reach LevelDB together, as one atomic write, and groups are
 * written one at a time in order: a crash loses at most the unwritten tail and the database always holds a
 * consistent head (each block's head pointer is in the same write as its block). Until a batch is written its
 * values answer reads from here: nothing in memory can point at a record a read would miss.
 *
 * Why groups: each LevelDB write costs the main thread the copying of its operations into the native batch plus
 * the wake-up of a thread-pool thread, which on a busy two-core machine preempts the event loop; per block it
 * was the largest single item of a dev transfer's profile after execution. One write per group pays it once for
 * every block of a sequence of sends.
 */
import type { WriteOp } from './chain-db.js';

/** How long a queued batch waits for later ones to join its write (the most a crash loses beyond a write). */
const GROUP_MS = 25;
/** Batches in one group at most: a full group is written at once and its last caller waits for it (a burst). */
const MAX_GROUP = 64;

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
  #groupTimer: NodeJS.Timeout | undefined;
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
   * Queues `ops` behind every earlier batch. Returns at once unless it filled a group (then once that group is
   * written); throws once a write failed, since later batches build on the lost one (the in-memory chain is then
   * ahead of the disk for good).
   */
  async enqueue(ops: WriteOp[]): Promise<void> {
    if (this.#failure !== undefined) throw this.#failure;
    const batch = ++this.#batches;
    for (const op of ops) {
      this.#unwritten.set(keyOf(op.key), { value: op.type === 'put' ? op.value : undefined, batch });
      this.#group.push(op);
    }
    this.#groupBatches++;
    if (this.#groupBatches >= MAX_GROUP) {
      this.#writeGroup();
      await this.#tail;
    } else this.#groupTimer ??= setTimeout(() => this.#writeGroup(), GROUP_MS);
  }

  /** Hands the group to LevelDB behind the writes before it. */
  #writeGroup(): void {
    clearTimeout(this.#groupTimer);
    this.#groupTimer = undefined;
    const count = this.#groupBatches;
    if (count === 0) return;
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
      }
    });
  }

  /** Resolves once every batch queued so far is in LevelDB (a waiting group is written now); rejects if one failed. */
  async flushed(): Promise<void> {
    this.#writeGroup();
    await this.#tail;
    if (this.#failure !== undefined) throw this.#failure;
  }
}

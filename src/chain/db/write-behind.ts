/**
 * Write-behind for the chain database (the instant-seal dev chain's default): a block's batch is queued and the
 * caller goes on at once, so a send is answered when its block is the in-memory head instead of after LevelDB's
 * write. Queued batches are written together (group commit) once a short window has passed since the first of them
 * (`GROUP_WINDOW_MS`), or at once when many wait or a reader needs the disk (`flushed`). Writes land one at a time
 * in order: a crash loses at most the unwritten tail (the last window's blocks) and the database always holds a
 * consistent head (each block's head pointer is in the same write as its block). Until a batch is written its
 * values answer reads from here: nothing in memory can point at a record a read would miss.
 *
 * Why a window and not the next turn of the event loop: each LevelDB write costs the main thread the copying of its
 * operations into the native batch and the wake-up of a thread-pool thread, which on a busy machine preempts the
 * main thread; a client sending one transaction at a time gets a block (and a write) per send, and profiled that
 * write as the largest single cost of its block. In one window those blocks share one write.
 */

/** Batches waiting at most: beyond it a write waits for the one under way (a burst cannot grow them unbounded). */
const MAX_WAITING = 64;
/** Index entries below which written ones are left for later (a sweep's walk would cost more than it frees). */
const SWEEP_MIN = 4096;
/** One write of a block's batch (chain-db.ts collects them in a WriteBatch). */
export type WriteOp = { type: 'put'; key: Uint8Array; value: Uint8Array } | { type: 'del'; key: Uint8Array };

/** How long the first queued batch waits for others to share its write: the most a crash can lose, in time. */
export const GROUP_WINDOW_MS = 25;

interface Unwritten {
  /** undefined: deleted. */
  readonly value: Uint8Array | undefined;
  /** The batch that wrote it last: only the write holding that batch may drop the entry. */
  readonly batch: number;
}

/** A key as a Map key: its bytes as a latin1 string (one char per byte, no copy of the bytes). */
const keyOf = (key: Uint8Array) => Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('latin1');

export class WriteBehindQueue {
  /** The index of queued values by key, as of the last read that needed it (see `#unindexed`). */
  readonly #unwritten = new Map<string, Unwritten>();
  /**
   * Batches queued since a read last brought the index up to date, oldest first, and not written yet. Indexed only
   * when a read comes: the dev miner's blocks are mostly written before anything reads them back from here, and a
   * string key and two Map updates per record (~0.1 ms per block) were spent for nothing.
   */
  #unindexed: { readonly batch: number; readonly ops: readonly WriteOp[] }[] = [];
  /** Operations of the batches not yet handed to LevelDB, in order. */
  #group: WriteOp[] = [];
  #groupBatches = 0;
  /** A write of the group is scheduled (`#timer`) or under way. */
  #busy = false;
  /** The window of the waiting group, while it runs. */
  #timer: NodeJS.Timeout | undefined;
  /** Batches handed to LevelDB and not written yet. */
  #writing = 0;
  #tail: Promise<void> = Promise.resolve();
  #batches = 0;
  /** Every batch up to this one is in LevelDB: index entries of those are stale. */
  #written = 0;
  /** Index size at which the next write sweeps stale entries out. */
  #sweepAt = SWEEP_MIN;
  #failure: Error | undefined;

  /** `write` is LevelDB's atomic batch write; `windowMs` the group window (`GROUP_WINDOW_MS`; 0: the next turn). */
  constructor(
    private readonly write: (ops: WriteOp[]) => Promise<void>,
    private readonly windowMs = GROUP_WINDOW_MS,
  ) {}

  /** Records in the read index, stale ones not yet swept included (tests watch it stay bounded). */
  get indexed(): number {
    return this.#unwritten.size;
  }

  /** Batches queued and not yet written. */
  get queued(): number {
    return this.#groupBatches + this.#writing;
  }

  /**
   * A queued value for `key`: `{ value }` (undefined = deleted) while a batch that holds it is unwritten, else
   * undefined (read LevelDB).
   */
  lookup(key: Uint8Array): { readonly value: Uint8Array | undefined } | undefined {
    if (this.#unindexed.length > 0) this.#index();
    if (this.#unwritten.size === 0) return undefined;
    const entry = this.#unwritten.get(keyOf(key));
    // Its batch is in LevelDB already (entries of written batches leave the index in sweeps, not one by one).
    return entry === undefined || entry.batch <= this.#written ? undefined : entry;
  }

  /** Brings the index up to date, in queue order (a later batch's value wins). */
  #index(): void {
    for (const { batch, ops } of this.#unindexed)
      for (const op of ops)
        this.#unwritten.set(keyOf(op.key), { value: op.type === 'put' ? op.value : undefined, batch });
    this.#unindexed = [];
  }

  /**
   * Queues `ops` behind every earlier batch. Returns at once unless `MAX_WAITING` batches wait (then once the write
   * under way is done); throws once a write failed, since later batches build on the lost one (the in-memory chain
   * is then ahead of the disk for good).
   */
  async enqueue(ops: WriteOp[]): Promise<void> {
    if (this.#failure !== undefined) throw this.#failure;
    const batch = ++this.#batches;
    this.#unindexed.push({ batch, ops });
    for (const op of ops) this.#group.push(op);
    this.#groupBatches++;
    if (!this.#busy) {
      this.#busy = true;
      this.#schedule();
    } else if (this.#groupBatches >= MAX_WAITING) {
      if (this.#timer !== undefined) this.#writeNow();
      else await this.#tail;
    }
  }

  /** Starts the group's window (never shorter than a turn: the answer that waited for the block goes out first). */
  #schedule(): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#writeGroup();
    }, this.windowMs);
  }

  /** Ends the waiting group's window early. */
  #writeNow(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#writeGroup();
  }

  /** Hands the waiting batches to LevelDB as one write; batches queued meanwhile wait for a window of their own. */
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
        if (this.#failure === undefined) {
          // Written in order: the batches of this write are the oldest unindexed ones, if not indexed yet.
          let done = 0;
          while (done < this.#unindexed.length && this.#unindexed[done]!.batch <= last) done++;
          if (done > 0) this.#unindexed.splice(0, done);
          this.#written = last;
          this.#dropWritten();
        }
        if (this.#groupBatches === 0) this.#busy = false;
        else if (this.#groupBatches >= MAX_WAITING) this.#writeGroup();
        else this.#schedule();
      }
    });
  }

  /**
   * Drops index entries of written batches: all at once when nothing is left unwritten, else in a sweep once the
   * index has doubled since the last one. An import keeps batches queued without pause, and a string key per
   * record and write (besides the one to index it) was a tenth of the main thread's GC.
   */
  #dropWritten(): void {
    if (this.#unwritten.size === 0) return;
    if (this.#written === this.#batches) {
      this.#unwritten.clear();
      this.#sweepAt = SWEEP_MIN;
      return;
    }
    if (this.#unwritten.size < this.#sweepAt) return;
    for (const [key, entry] of this.#unwritten) if (entry.batch <= this.#written) this.#unwritten.delete(key);
    this.#sweepAt = Math.max(SWEEP_MIN, 2 * this.#unwritten.size);
  }

  /** Resolves once every batch queued so far is in LevelDB (a waiting group is written now); rejects if one failed. */
  async flushed(): Promise<void> {
    while (this.#busy) {
      if (this.#timer !== undefined) this.#writeNow();
      await this.#tail;
    }
    if (this.#failure !== undefined) throw this.#failure;
  }
}

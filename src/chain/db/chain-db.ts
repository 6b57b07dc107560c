/**
 * The one LevelDB of a node: raw binary keys (see keys.ts) and values. Reads go straight to LevelDB;
 * writes only through `write(batch)`, one atomic LevelDB batch per imported block. With `writeBehind` a write is
 * queued and returns at once (write-behind.ts); reads then see queued values first.
 */
import type { FlatChanges } from './flat-changes.js';
import { mkdirSync } from 'node:fs';
import { Level } from 'level';
import { Tag } from './keys.js';
import { PutScratch } from './put-scratch.js';
import { WriteBehindQueue, type WriteOp } from './write-behind.js';

export type { WriteOp };

/** Collects the writes of one block (chain records and state nodes) to commit them together. */
export class WriteBatch {
  readonly ops: WriteOp[] = [];
  /** The block's flat-state changes as its execution recorded them (flat-changes.ts), when it did. */
  flatChanges: FlatChanges | undefined;

  put(key: Uint8Array, value: Uint8Array): this {
    this.ops.push({ type: 'put', key, value });
    return this;
  }

  del(key: Uint8Array): this {
    this.ops.push({ type: 'del', key });
    return this;
  }
}

const binary = { keyEncoding: 'view', valueEncoding: 'view' } as const;

/** The chained-batch calls `applyOps` makes (classic-level's chained batch satisfies it). */
interface OpSink {
  put(key: Uint8Array, value: Uint8Array): unknown;
  del(key: Uint8Array): unknown;
}

/**
 * One operation into a chained batch. A function of its own, called per operation: `applyOps` runs a few times a
 * second and stays in baseline code, while this one gets hot enough to be optimised with the scratch copies.
 */
function addOp(chained: OpSink, op: WriteOp, scratch: PutScratch): void {
  if (op.type === 'put') chained.put(scratch.key(op.key), scratch.value(op.value));
  else chained.del(scratch.key(op.key));
}

/** Another process holds the database (LevelDB allows one): in practice another node on the same data directory. */
export class DatabaseLockedError extends Error {
  constructor(
    readonly dir: string,
    cause: unknown,
  ) {
    super(`the database ${dir} is locked by another process`, { cause });
    this.name = 'DatabaseLockedError';
  }
}

/** Ordered keys of a range (LevelDB's key iterator satisfies it). */
export interface KeyRangeIterator {
  nextv(size: number): Promise<Uint8Array[]>;
  close(): Promise<void>;
}

/** Ordered entries of a range (LevelDB's iterator satisfies it). */
export interface EntryRangeIterator {
  nextv(size: number): Promise<[Uint8Array, Uint8Array][]>;
  close(): Promise<void>;
}

export interface ChainDBOptions {
  /** LevelDB's block cache and memtable in bytes (classic-level's defaults: 8 and 4 MiB). */
  readonly cacheSize?: number;
  readonly writeBufferSize?: number;
  /** Queue writes and return before LevelDB has them (write-behind.ts); default false: a write returns once stored. */
  readonly writeBehind?: boolean;
}

/**
 * Sees every state-table put before the write is made: its key with the tag (an observer that needs the id takes
 * `key.subarray(1)` itself: the pruner only while a cycle marks, so a block's puts make no views for nothing) and
 * its value.
 */
export type StateWriteObserver = (key: Uint8Array, value: Uint8Array) => void;

/** classic-level's range methods (Node's `Level`), which the browser-neutral type of `level` leaves out. */
interface RangeMaintenance {
  approximateSize(start: Uint8Array, end: Uint8Array): Promise<number>;
  compactRange(start: Uint8Array, end: Uint8Array): Promise<void>;
}

const STATE_RANGE = { gte: Uint8Array.of(Tag.state), lt: Uint8Array.of(Tag.state + 1) };

export class ChainDB {
  private readonly queue: WriteBehindQueue | undefined;
  /**
   * The pruner's write barrier (chain/blockchain/pruner.ts): told of each state node or code before it is queued or
   * written, in the caller's turn, so a node a block writes again while a sweep runs is never taken for garbage.
   */
  stateWrites: StateWriteObserver | undefined;
  /**
   * Observers of one table's writes by tag (`observeTable`): the log index's in-memory postings of recent blocks
   * (logs/recent-postings.ts), which must see every posting the moment it is written, whichever path writes it.
   */
  private readonly tableWrites = new Map<number, Set<(op: WriteOp) => void>>();
  /** `tableWrites` by first key byte, for the per-operation check (a Map lookup per op showed in perf). */
  private readonly observedTags: (Set<(op: WriteOp) => void> | undefined)[] = new Array(256).fill(undefined);
  /** Without write-behind: a sweep's delete under way; writes begun after it wait for it (see `deleteStale`). */
  private sweepWrite: Promise<void> | undefined;
  /** Off-heap views small keys and values are copied into for the native put (put-scratch.ts); owned here. */
  private readonly scratch = new PutScratch();

  private constructor(
    private readonly level: Level<Uint8Array, Uint8Array>,
    writeBehind: boolean,
  ) {
    this.queue = writeBehind ? new WriteBehindQueue((ops) => this.applyOps(ops)) : undefined;
  }

  static async open(dir: string, options: ChainDBOptions = {}): Promise<ChainDB> {
    mkdirSync(dir, { recursive: true });
    const { writeBehind = false, ...memory } = options;
    const level = new Level<Uint8Array, Uint8Array>(dir, { ...binary, ...memory });
    try {
      await level.open();
    } catch (err) {
      // LevelDB's LOCK file: one process per database. Said plainly, since "Database failed to open" alone hides it.
      if ((err as { cause?: { code?: string } }).cause?.code === 'LEVEL_LOCKED')
        throw new DatabaseLockedError(dir, err);
      throw err;
    }
    return new ChainDB(level, writeBehind);
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    const queued = this.queue?.lookup(key);
    if (queued !== undefined) return queued.value;
    const value = await this.level.get(key);
    if (value === undefined) return undefined;
    // classic-level hands back Buffers; callers get plain Uint8Arrays (same memory, no copy).
    return Buffer.isBuffer(value) ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength) : value;
  }

  /**
   * The same read done synchronously, in this thread: for small records read on the block-import path (a block's
   * number), where the thread-pool round trip of `get` costs far more than LevelDB's own lookup (memtable and
   * cached filter blocks, microseconds).
   */
  getSync(key: Uint8Array): Uint8Array | undefined {
    const queued = this.queue?.lookup(key);
    if (queued !== undefined) return queued.value;
    const value = this.level.getSync(key);
    if (value === undefined) return undefined;
    return Buffer.isBuffer(value) ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength) : value;
  }

  /**
   * Many values in one read off this thread (one task of LevelDB's thread pool): the pruner's mark walk, whose
   * synchronous reads stalled the event loop whenever one waited on the disk (tens of ms on a busy machine).
   */
  async getMany(keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    const values: (Uint8Array | undefined)[] = new Array(keys.length).fill(undefined);
    const stored: Uint8Array[] = [];
    const at: number[] = [];
    for (let i = 0; i < keys.length; i++) {
      const queued = this.queue?.lookup(keys[i]!);
      if (queued !== undefined) values[i] = queued.value;
      else {
        stored.push(keys[i]!);
        at.push(i);
      }
    }
    if (stored.length === 0) return values;
    const found = await this.level.getMany(stored);
    for (let j = 0; j < found.length; j++) {
      const value = found[j];
      if (value !== undefined)
        values[at[j]!] = Buffer.isBuffer(value)
          ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
          : value;
    }
    return values;
  }

  /**
   * Ordered keys in `[gte, lt)` (highest first when `reverse`): the log and address indexes scan their postings
   * this way (after any queued writes land).
   */
  keys(range: { gte: Uint8Array; lt: Uint8Array; reverse?: boolean }): KeyRangeIterator {
    const queue = this.queue;
    if (queue === undefined || queue.queued === 0) return this.level.keys(range);
    // Merging queued keys into LevelDB's order is not worth it: scans are rare next to writes, a flush is short.
    let iterator: Promise<KeyRangeIterator> | undefined;
    const open = () => (iterator ??= queue.flushed().then(() => this.level.keys(range)));
    return {
      nextv: async (size) => (await open()).nextv(size),
      close: async () => {
        if (iterator !== undefined) await (await iterator).close();
      },
    };
  }

  /** Every record in key order, a page at a time (offline scans: `svc-node db stats`). */
  entries(range: { gte?: Uint8Array; lt?: Uint8Array } = {}): EntryRangeIterator {
    return this.level.iterator(range) as unknown as EntryRangeIterator;
  }

  /** LevelDB's estimate of the bytes on disk of the keys in `[start, end)`. */
  approximateSize(start: Uint8Array, end: Uint8Array): Promise<number> {
    return (this.level as unknown as RangeMaintenance).approximateSize(start, end);
  }

  /**
   * Ordered entries in `[gte, lt)` read from LevelDB's snapshot as of now, or undefined while writes are still
   * queued (the caller awaits `flushed` and asks again): the flat state's range reads (state/flat-table.ts).
   */
  entriesNow(range: { gte: Uint8Array; lt: Uint8Array }): EntryRangeIterator | undefined {
    if (this.queue !== undefined && this.queue.queued > 0) return undefined;
    return this.entries(range);
  }

  /** Stores `batch` atomically; with write-behind, queues it behind the earlier ones and returns at once. */
  async write(batch: WriteBatch): Promise<void> {
    if (batch.ops.length === 0) return;
    this.observe(batch.ops);
    if (this.queue !== undefined) return this.queue.enqueue(batch.ops);
    if (this.sweepWrite !== undefined) await this.sweepWrite;
    await this.applyOps(batch.ops);
  }

  /**
   * Calls `observer` with every put and delete of a key whose first byte is `tag`, in the writer's turn, before the
   * write is queued or made (`write` and `writeNow`). Returns the unsubscribe.
   */
  observeTable(tag: number, observer: (op: WriteOp) => void): () => void {
    let observers = this.tableWrites.get(tag);
    if (observers === undefined) {
      this.tableWrites.set(tag, (observers = new Set()));
      this.observedTags[tag] = observers;
    }
    observers.add(observer);
    return () => {
      observers.delete(observer);
      if (observers.size === 0 && this.tableWrites.get(tag) === observers) {
        this.tableWrites.delete(tag);
        this.observedTags[tag] = undefined;
      }
    };
  }

  private observe(ops: readonly WriteOp[]): void {
    const observer = this.stateWrites;
    if (observer !== undefined)
      for (const op of ops) if (op.type === 'put' && op.key[0] === Tag.state) observer(op.key, op.value);
    if (this.tableWrites.size === 0) return;
    for (const op of ops) {
      const observers = this.observedTags[op.key[0]!];
      if (observers !== undefined) for (const o of observers) o(op);
    }
  }

  /**
   * Deletes the state keys of `candidates` that `stale` still calls stale, deciding in this turn: a put of one of them
   * observed later (a block writing that node again) lands after the delete (behind it in the write-behind queue, or
   * waiting for it), and a put observed earlier made `stale` answer false. Returns how many were deleted.
   */
  async deleteStale(candidates: readonly Uint8Array[], stale: (key: Uint8Array) => boolean): Promise<number> {
    const ops: WriteOp[] = [];
    for (const key of candidates) if (key[0] === Tag.state && stale(key)) ops.push({ type: 'del', key });
    if (ops.length === 0) return 0;
    if (this.queue !== undefined) {
      await this.queue.enqueue(ops);
      return ops.length;
    }
    const run = this.applyOps(ops);
    const gate = run.then(
      () => undefined,
      () => undefined,
    );
    this.sweepWrite = gate;
    try {
      await run;
    } finally {
      if (this.sweepWrite === gate) this.sweepWrite = undefined;
    }
    return ops.length;
  }

  /** LevelDB's estimate of the state table's size on disk, in bytes. */
  stateBytesOnDisk(): Promise<number> {
    return this.approximateSize(STATE_RANGE.gte, STATE_RANGE.lt);
  }

  /** Compacts the state table (after a sweep: the deleted entries' space is given back). */
  async compactState(): Promise<void> {
    await this.flushed();
    await (this.level as unknown as RangeMaintenance).compactRange(STATE_RANGE.gte, STATE_RANGE.lt);
  }

  /**
   * Stores `batch` atomically and returns once LevelDB has it, past the write-behind queue (after what it holds):
   * for bulk writes that nothing reads back at once, where the queue's index of every queued key (a string per key,
   * ~7 % of a snap-syncing dev node's CPU) buys nothing. Without write-behind this is `write`.
   */
  async writeNow(batch: WriteBatch): Promise<void> {
    if (batch.ops.length === 0) return;
    this.observe(batch.ops);
    if (this.queue !== undefined && this.queue.queued > 0) await this.queue.flushed();
    if (this.sweepWrite !== undefined) await this.sweepWrite;
    await this.applyOps(batch.ops);
  }

  /**
   * One atomic LevelDB write, as a chained batch: one native call per operation with its key and value as
   * arguments cost ~40 % less of the main thread than the array form, whose native side reads each operation
   * object's properties one by one (a bulk chunk of empty blocks: the array form was ~15 % of the chunk). Small
   * keys and values go through the scratch views, which the binding has copied from when each call returns.
   */
  private applyOps(ops: readonly WriteOp[]): Promise<void> {
    const chained = this.level.batch();
    for (const op of ops) addOp(chained, op, this.scratch);
    return chained.write();
  }

  /** Resolves once every write made so far is in LevelDB (at once without write-behind). */
  async flushed(): Promise<void> {
    await this.queue?.flushed();
  }

  async close(): Promise<void> {
    try {
      await this.flushed();
    } finally {
      await this.level.close();
    }
  }
}

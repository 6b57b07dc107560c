/**
 * The one LevelDB of a node: raw binary keys (see keys.ts) and values. Reads go straight to LevelDB;
 * writes only through `write(batch)`, one atomic LevelDB batch per imported block.
 */
import { mkdirSync } from 'node:fs';
import { Level } from 'level';

export type WriteOp = { type: 'put'; key: Uint8Array; value: Uint8Array } | { type: 'del'; key: Uint8Array };

/** Collects the writes of one block (chain records and state nodes) to commit them together. */
export class WriteBatch {
  readonly ops: WriteOp[] = [];

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

export class ChainDB {
  private constructor(private readonly level: Level<Uint8Array, Uint8Array>) {}

  /** `cacheSize`, `writeBufferSize`: LevelDB's block cache and memtable in bytes (classic-level's defaults: 8 and 4 MiB). */
  static async open(
    dir: string,
    memory: { readonly cacheSize?: number; readonly writeBufferSize?: number } = {},
  ): Promise<ChainDB> {
    mkdirSync(dir, { recursive: true });
    const level = new Level<Uint8Array, Uint8Array>(dir, { ...binary, ...memory });
    try {
      await level.open();
    } catch (err) {
      // LevelDB's LOCK file: one process per database. Said plainly, since "Database failed to open" alone hides it.
      if ((err as { cause?: { code?: string } }).cause?.code === 'LEVEL_LOCKED')
        throw new DatabaseLockedError(dir, err);
      throw err;
    }
    return new ChainDB(level);
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
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
    const value = this.level.getSync(key);
    if (value === undefined) return undefined;
    return Buffer.isBuffer(value) ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength) : value;
  }

  /** Ordered keys in `[gte, lt)`: the log index scans its postings this way. */
  keys(range: { gte: Uint8Array; lt: Uint8Array }) {
    return this.level.keys(range);
  }

  async write(batch: WriteBatch): Promise<void> {
    if (batch.ops.length === 0) return;
    await this.level.batch(batch.ops);
  }

  async close(): Promise<void> {
    await this.level.close();
  }
}

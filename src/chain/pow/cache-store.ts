/**
 * Epoch caches: a small in-memory LRU in front of raw binary files in a data directory, with builds in a worker
 * thread. Caches are keyed by epoch *and* epoch length because under Etchash the same epoch number names two
 * different caches (e.g. mainnet epoch 195 before and after ECIP-1099 have different seeds).
 *
 * File layout: `<dir>/ethash-cache-R23-<epoch>-<first 8 seed bytes hex>`, the cache's little-endian words
 * exactly as hashimoto reads them (core-geth names its files the same way). Files are written to a temp
 * name and renamed, so a crash never leaves a truncated cache under the final name; a file of the wrong
 * size is rebuilt.
 */
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { ProgressLog, type ProgressLogger } from '../base/progress-log.js';
import { buildCacheFast, intoCacheMemory } from './light.js';
import { buildCacheInWorker } from './cache-worker-spawn.js';
import { CACHE_ROUNDS, HASH_BYTES, cacheSize, seedHash, type EpochInfo } from './epoch.js';
import { loadKeccak } from '../base/keccak.js';

const FILE_PREFIX = 'ethash-cache-R23-';

export interface CacheStoreOptions {
  /** Epoch caches kept in memory, least recently used evicted first (default 2: the current and the next). */
  readonly inMemory?: number;
  /** Cache files kept in the directory; the oldest are deleted after each write (default 3). */
  readonly onDisk?: number;
  /** Build caches in a worker thread (default true); false builds on the calling thread and blocks it. */
  readonly useWorker?: boolean;
  /** Receives non-fatal problems (an unreadable or unwritable cache file); default: silent. */
  readonly onWarning?: (message: string) => void;
  /** Where a cache build logs its start, progress lines (every `progressIntervalMs`, default 5 s) and end; default: silent. */
  readonly log?: ProgressLogger;
  readonly progressIntervalMs?: number;
}

export class EthashCacheStore {
  private readonly memory = new Map<string, Uint32Array>();
  private readonly pending = new Map<string, Promise<Uint32Array>>();
  private readonly inMemory: number;
  private readonly onDisk: number;
  private readonly useWorker: boolean;
  private readonly warn: (message: string) => void;
  private readonly log: ProgressLogger | undefined;
  private readonly progressIntervalMs: number | undefined;

  /** `dir` = where cache files live; undefined keeps caches in memory only. */
  constructor(
    readonly dir: string | undefined,
    options: CacheStoreOptions = {},
  ) {
    this.inMemory = Math.max(1, options.inMemory ?? 2);
    this.onDisk = Math.max(1, options.onDisk ?? 3);
    this.useWorker = options.useWorker ?? true;
    this.warn = options.onWarning ?? (() => {});
    this.log = options.log;
    this.progressIntervalMs = options.progressIntervalMs;
  }

  /** The cache if it is already in memory (no I/O, no build). */
  peek(key: EpochInfo): Uint32Array | undefined {
    return this.memory.get(keyOf(key));
  }

  /** The epoch's cache: from memory, else from disk, else built (once, however many callers wait for it). */
  get(key: EpochInfo): Promise<Uint32Array> {
    const id = keyOf(key);
    const hit = this.memory.get(id);
    if (hit !== undefined) {
      this.memory.delete(id);
      this.memory.set(id, hit);
      return Promise.resolve(hit);
    }
    let loading = this.pending.get(id);
    if (loading === undefined) {
      loading = this.load(key).then(
        (cache) => {
          this.pending.delete(id);
          this.remember(id, cache);
          return cache;
        },
        (error: unknown) => {
          this.pending.delete(id);
          throw error;
        },
      );
      this.pending.set(id, loading);
    }
    return loading;
  }

  /** Starts loading or building a cache in the background (e.g. the next epoch's); failures are reported as warnings. */
  prefetch(key: EpochInfo): void {
    if (this.memory.has(keyOf(key)) || this.pending.has(keyOf(key))) return;
    this.get(key).catch((error: unknown) =>
      this.warn(`pre-building the Ethash cache of epoch ${key.epoch} failed: ${String(error)}`),
    );
  }

  private remember(id: string, cache: Uint32Array): void {
    this.memory.delete(id);
    this.memory.set(id, cache);
    while (this.memory.size > this.inMemory) {
      const oldest = this.memory.keys().next().value as string;
      this.memory.delete(oldest);
    }
  }

  private async load(key: EpochInfo): Promise<Uint32Array> {
    await loadKeccak();
    const size = cacheSize(key.epoch);
    const file = this.dir === undefined ? undefined : join(this.dir, fileName(key));
    if (file !== undefined) {
      const fromDisk = await this.read(file, size);
      if (fromDisk !== undefined) return fromDisk;
    }
    // A build takes seconds (about 2.5 s for epoch 0, growing with the epoch): say so, and how far it is.
    this.log?.info('Ethash cache build started', { epoch: key.epoch, bytes: size });
    const progress =
      this.log === undefined
        ? undefined
        : new ProgressLog({
            log: this.log,
            message: 'Ethash cache build progress',
            total: (size / HASH_BYTES) * (1 + CACHE_ROUNDS),
            ...(this.progressIntervalMs !== undefined ? { intervalMs: this.progressIntervalMs } : {}),
            fields: () => ({ epoch: key.epoch }),
          }).start();
    const onProgress =
      progress === undefined ? undefined : (done: number, total: number) => progress.update(done, total);
    let cache: Uint32Array;
    try {
      cache = this.useWorker
        ? await buildCacheInWorker(key.epoch, key.epochLength, onProgress).catch((error: unknown) => {
            // Verification must not stop because a thread could not start; block this thread instead.
            this.warn(`Ethash cache worker failed (${String(error)}): building epoch ${key.epoch} on this thread`);
            return buildCacheFast(size, seedHash(key.epoch, key.epochLength), onProgress);
          })
        : buildCacheFast(size, seedHash(key.epoch, key.epochLength), onProgress);
    } finally {
      progress?.stop();
    }
    if (progress !== undefined)
      this.log?.info('Ethash cache built', {
        epoch: key.epoch,
        seconds: Math.round(progress.elapsedSeconds * 10) / 10,
      });
    if (file !== undefined) await this.write(file, cache);
    return cache;
  }

  private async read(file: string, size: number): Promise<Uint32Array | undefined> {
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        this.warn(`cannot read Ethash cache ${file}: ${String(error)}`);
      return undefined;
    }
    if (bytes.length !== size) {
      this.warn(`Ethash cache ${file} has ${bytes.length} bytes, expected ${size}: rebuilding it`);
      return undefined;
    }
    // Large files get their own ArrayBuffer at offset 0; copy only if Node handed back an unaligned slice.
    // With WebAssembly the words move into a cache memory (hashed there, shared with the seal workers).
    if (bytes.byteOffset % 4 === 0) return intoCacheMemory(new Uint32Array(bytes.buffer, bytes.byteOffset, size / 4));
    return intoCacheMemory(new Uint32Array(new Uint8Array(bytes).buffer));
  }

  private async write(file: string, cache: Uint32Array): Promise<void> {
    const dir = this.dir as string;
    const temp = `${file}.tmp-${process.pid}-${threadId}-${Math.random().toString(36).slice(2)}`;
    try {
      await mkdir(dir, { recursive: true });
      await writeFile(temp, new Uint8Array(cache.buffer, cache.byteOffset, cache.byteLength));
      await rename(temp, file);
      await this.prune(dir);
    } catch (error) {
      this.warn(`cannot store Ethash cache ${file}: ${String(error)}`);
      await unlink(temp).catch(() => {});
    }
  }

  /** Keeps the `onDisk` most recently written cache files. */
  private async prune(dir: string): Promise<void> {
    const names = (await readdir(dir)).filter((name) => name.startsWith(FILE_PREFIX) && !name.includes('.tmp-'));
    if (names.length <= this.onDisk) return;
    const dated = await Promise.all(
      names.map(async (name) => ({ name, mtime: (await stat(join(dir, name))).mtimeMs })),
    );
    dated.sort((a, b) => b.mtime - a.mtime);
    for (const { name } of dated.slice(this.onDisk)) await unlink(join(dir, name)).catch(() => {});
  }
}

function keyOf(key: EpochInfo): string {
  return `${key.epoch}/${key.epochLength}`;
}

/** Needs loadKeccak() (the name carries the seed prefix). */
export function fileName(key: EpochInfo): string {
  const seed = seedHash(key.epoch, key.epochLength);
  return `${FILE_PREFIX}${key.epoch}-${Buffer.from(seed.subarray(0, 8)).toString('hex')}`;
}

/**
 * Every log of recently queried blocks, positioned (the `Log` objects queries return), by block hash. A query over
 * recent blocks takes each candidate block's logs from here instead of reading the block and its receipts through
 * the store's caches (two async reads, a transaction hash per transaction) and positioning every log again. The same
 * objects come back query after query, so a reader may keep what it derives from one (the JSON-RPC layer keeps each
 * log's JSON text) for as long as this holds it.
 *
 * A block hash names content that never changes, so nothing here is invalidated by a reorganisation: whether a block
 * is canonical is the query's own check, made before its logs are looked up. All logs are `removed: false`: the
 * `removed` copies a reorganisation reports are made by the filter manager, not here.
 *
 * Bounded by the logs held (a block without logs counts as one): past `maxLogs`, the least recently used blocks go.
 * A block with more logs than the whole bound is not held.
 */
import { hexKey } from '../db/hex-key.js';
import type { Log } from './types.js';

/**
 * Default bound. A log costs ~100 bytes here (its bytes are the receipts' own) and ~700 bytes of JSON text kept by
 * the JSON-RPC layer for as long as it is here: at most ~6.5 MiB.
 */
export const DEFAULT_MAX_CACHED_LOGS = 8192;

export class BlockLogCache {
  /** Logs by block hash (hexKey), least recently used first (a hit moves its block to the end). */
  readonly #blocks = new Map<string, readonly Log[]>();
  #held = 0;

  constructor(readonly maxLogs = DEFAULT_MAX_CACHED_LOGS) {
    if (!Number.isSafeInteger(maxLogs) || maxLogs < 1)
      throw new RangeError(`maxLogs must be a positive integer, got ${maxLogs}`);
  }

  /** Logs held (tests watch the bound). */
  get size(): number {
    return this.#held;
  }

  get(blockHash: Uint8Array): readonly Log[] | undefined {
    const key = hexKey(blockHash);
    const logs = this.#blocks.get(key);
    if (logs !== undefined) {
      this.#blocks.delete(key);
      this.#blocks.set(key, logs);
    }
    return logs;
  }

  /** Holds every log of the block `blockHash`, in block order (`logsOfBlock` without criteria). */
  set(blockHash: Uint8Array, logs: readonly Log[]): void {
    const weight = Math.max(1, logs.length);
    if (weight > this.maxLogs) return;
    const key = hexKey(blockHash);
    const previous = this.#blocks.get(key);
    if (previous !== undefined) {
      this.#blocks.delete(key);
      this.#held -= Math.max(1, previous.length);
    }
    for (const [oldest, held] of this.#blocks) {
      if (this.#held + weight <= this.maxLogs) break;
      this.#blocks.delete(oldest);
      this.#held -= Math.max(1, held.length);
    }
    this.#blocks.set(key, logs);
    this.#held += weight;
  }
}

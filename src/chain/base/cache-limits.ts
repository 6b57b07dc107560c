/**
 * Bounds of every cache the engine keeps in memory, and LevelDB's own. Each is a count of entries (bytes for the
 * LevelDB figures); the node's configuration sets them (`cache.*`, `db.*` in src/node/settings/caches.ts). The defaults
 * suit a dev node and a light public node: per entry, a raw trie node costs ~350 bytes, a decoded one ~1.8 KiB (a
 * branch node is 17 typed arrays), a trie lookup ~300 bytes, a header ~2 KiB and a block a little more; everything
 * evicted is read back from LevelDB, whose block cache holds the recently read database blocks.
 */
export interface CacheLimits {
  /** Raw state-trie nodes by hash, in front of LevelDB (TrieNodeStore). */
  readonly trieNodes: number;
  /** Decoded state-trie nodes by hash, shared by every trie (the top levels are decoded again for every read otherwise). */
  readonly trieDecodedNodes: number;
  /** Answers of trie lookups by (root, key). */
  readonly trieLookups: number;
  /** Decoded blocks by hash. */
  readonly blocks: number;
  /** Decoded headers by hash (besides those of cached blocks). */
  readonly headers: number;
  /** Decoded receipts of a block, by block hash. */
  readonly receipts: number;
  /** Canonical block hashes by height. */
  readonly canonicalHashes: number;
  /** Read views of a block's state (eth_getBalance and the like), by block. */
  readonly stateViews: number;
  /** Call executors (a VM on a block's state, for eth_call / eth_estimateGas), by block. */
  readonly callExecutors: number;
  /** LevelDB's block cache, bytes. */
  readonly dbCacheBytes: number;
  /** LevelDB's write buffer (memtable), bytes. */
  readonly dbWriteBufferBytes: number;
}

export const DEFAULT_CACHE_LIMITS: CacheLimits = {
  trieNodes: 20_000,
  trieDecodedNodes: 2_000,
  trieLookups: 10_000,
  // 256: the cache keeps at least half its entries (db/lru.ts), so eth_getLogs answers that revisit up to 128 blocks
  // stay in memory (at 128, a 100-block range was decoded again on every query).
  blocks: 256,
  headers: 1_024,
  receipts: 256,
  canonicalHashes: 4_096,
  stateViews: 16,
  callExecutors: 4,
  dbCacheBytes: 4 * 1024 * 1024,
  dbWriteBufferBytes: 4 * 1024 * 1024,
};

/** The defaults with the given bounds in place of theirs. */
export function cacheLimitsOf(given: Partial<CacheLimits> | undefined): CacheLimits {
  return { ...DEFAULT_CACHE_LIMITS, ...given };
}

/**
 * A value read from the state, put into one of @ethereumjs/statemanager's checkpointed caches so that a revert keeps
 * it.
 *
 * The library's caches note, for every key first put within a checkpoint, what the cache held before ("nothing",
 * for a read), and a revert restores that: every account a transaction or a block read inside a checkpoint leaves
 * the cache with it. A trace's replay runs its block in a checkpoint and reverts it (so the next replay on the same
 * parent state continues on it, trace/replay-states.ts), which made each replay read and decode the same accounts
 * again from the flat state. A read is the state's own value, not a change: noted as its own earlier value, a revert
 * of the checkpoint leaves it cached, as it would be had it been read before the checkpoint. Flushes are unchanged
 * (they write the keys noted, read or written, as before).
 */

interface CheckpointedCache {
  readonly _diffCache: Map<string, unknown>[];
  readonly _checkpoints: number;
  readonly _orderedMapCache?: { getElementByKey(key: string): unknown };
}

/** After `cache.put` of a read under `key` (the cache's key: the address's unprefixed hex). */
export function keepRead(cache: unknown, key: string): void {
  const c = cache as CheckpointedCache;
  if (c._orderedMapCache === undefined || c._checkpoints === 0) return;
  const diff = c._diffCache[c._checkpoints];
  if (diff === undefined || !diff.has(key) || diff.get(key) !== undefined) return;
  diff.set(key, c._orderedMapCache.getElementByKey(key));
}

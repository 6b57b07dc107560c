/**
 * trieRange (trie-range.ts) for tries over the chain database, walked synchronously on the raw node encodings.
 *
 * Why: a snap server answers every range by walking the trie, and the library's walk costs a promise, a decoded
 * node object, a hex key and two cache inserts per node read. Node reads from the chain database are synchronous
 * LevelDB gets underneath (trie-db.ts), so the walk can be a plain recursion over RLP lists: profiled on a 50 k
 * account snap sync, the serving nodes spent most of their snap time in that per-node overhead and in the garbage
 * collection it caused. Leaves read here stay out of the node cache (each is read once per range, and would evict
 * the nodes block import and RPC share); the top levels, read again by every page, are kept.
 *
 * Same answers as the node-by-node walk: entries whose key is ≥ `start`, in key order, the next key after a full
 * page. A node that cannot be read at once ends the walk undefined, and the caller walks node by node instead.
 * Below the kept levels, nodes are read straight from the database, past the node cache (TrieNodeStore.readStored).
 */
import type { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { equalsBytes, KECCAK256_RLP } from '@ethereumjs/util';
import { decodeRlpList } from '../codec/rlp-views.js';
import { compareNibbles, comparePrefix, fromNibbles, toNibbles } from './nibbles.js';
import { BufferedTrieDB } from './trie-db.js';

export interface TrieEntry {
  /** The 32-byte trie key: keccak256 of the address or storage slot. */
  readonly key: Uint8Array;
  /** The stored value (account RLP, or the RLP of a storage value). */
  readonly value: Uint8Array;
}

export interface TriePage {
  readonly entries: TrieEntry[];
  /** First key after this page, or undefined when the trie holds nothing more. */
  readonly next?: Uint8Array;
}

/** A node's encoding by its hash, read at once; `keep` says whether it may go into the node cache. */
export type ReadNow = (hash: Uint8Array, keep: boolean) => Uint8Array | undefined;

/**
 * Nodes this close to the root (in nibbles) are kept in the node cache: every page walks down through them. A
 * walker of many small tries (a snap server answering storage ranges: tries of a few hundred slots have their
 * leaves 2-3 nibbles deep) passes 0, or every leaf would go through the cache, evicting what others share.
 */
export const KEEP_DEPTH = 4;

type Raw = Uint8Array | Raw[];

/** The synchronous reader of a trie on the chain database, or undefined when its reads must go through the library. */
export function readerOf(trie: MerklePatriciaTrie): ReadNow | undefined {
  const checkpoints = trie.database() as unknown as { db: unknown; hasCheckpoints(): boolean };
  const db = checkpoints.db;
  const prefixed = (trie as unknown as { _opts: { keyPrefix?: Uint8Array } })._opts.keyPrefix !== undefined;
  if (!(db instanceof BufferedTrieDB) || checkpoints.hasCheckpoints() || prefixed) return undefined;
  return (hash, keep) => db.readHashNow(hash, keep);
}

class Unreadable extends Error {}

/** Up to `limit` entries with key ≥ `start` under `root`; undefined when a node could not be read at once. */
export function trieRangeNow(
  read: ReadNow,
  root: Uint8Array,
  start: Uint8Array,
  limit: number,
  keepDepth = KEEP_DEPTH,
): TriePage | undefined {
  const entries: TrieEntry[] = [];
  if (equalsBytes(root, KECCAK256_RLP)) return { entries };
  const startNibbles = toNibbles(start);
  const path: number[] = [];
  let next: Uint8Array | undefined;
  // `after`: the path is already past `start` (every key below it is larger), so no more comparisons are needed.
  const visitRef = (ref: Raw, after: boolean): boolean => {
    if (Array.isArray(ref)) return visit(ref, after);
    const encoded = read(ref, path.length < keepDepth);
    if (encoded === undefined) throw new Unreadable();
    return visit(decodeRlpList(encoded) as Raw[], after);
  };
  const visit = (node: Raw[], after: boolean): boolean => {
    if (node.length === 17) {
      for (let i = 0; i < 16; i++) {
        const child = node[i]!;
        if (!Array.isArray(child) && child.length === 0) continue;
        path.push(i);
        const order = after ? 1 : comparePrefix(path, startNibbles);
        const go = order < 0 || visitRef(child, order > 0);
        path.pop();
        if (!go) return false;
      }
      return true;
    }
    const [compact, value] = node as [Uint8Array, Raw];
    const depth = path.length;
    const flag = compact[0]! >> 4;
    if (flag & 1) path.push(compact[0]! & 0x0f);
    for (let i = 1; i < compact.length; i++) path.push(compact[i]! >> 4, compact[i]! & 0x0f);
    let go: boolean;
    if (flag >= 2) go = leaf(value as Uint8Array, after);
    else {
      const order = after ? 1 : comparePrefix(path, startNibbles);
      go = order < 0 || visitRef(value, order > 0);
    }
    path.length = depth;
    return go;
  };
  const leaf = (value: Uint8Array, after: boolean): boolean => {
    if (!after && compareNibbles(path, startNibbles) < 0) return true;
    const key = fromNibbles(path);
    if (entries.length === limit) {
      next = key;
      return false;
    }
    entries.push({ key, value });
    return true;
  };
  try {
    visitRef(root, false);
  } catch (err) {
    if (err instanceof Unreadable) return undefined;
    throw err;
  }
  return { entries, ...(next !== undefined ? { next } : {}) };
}

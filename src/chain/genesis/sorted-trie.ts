/**
 * A Merkle-Patricia trie built at once from its full set of leaves, sorted by key: every node is encoded and hashed
 * exactly once, bottom-up, and only the final nodes exist. A genesis allocation is such a set; inserting it leaf by
 * leaf through the library's trie (or a state manager) re-hashed each path on every insert and then diffed the trie
 * to fill the flat state, about 1 s of a fresh ETC datadir's open (8,893 accounts).
 *
 * Keys are hashed (32 bytes), so no key is a prefix of another and branches never carry a value.
 */
import { encodeRlp, type RlpItem } from '../codec/rlp-encode.js';
import { keccak256 } from '../base/crypto.js';
import { KECCAK256_RLP } from '@ethereumjs/util';

export interface SortedLeaf {
  /** 32 bytes; unique within the set. */
  readonly key: Uint8Array;
  readonly value: Uint8Array;
}

/** Told of each node stored under its hash (nodes whose encoding is under 32 bytes live inside their parent). */
export type NodeSink = (hash: Uint8Array, encoded: Uint8Array) => void;

/** The root of the trie holding `leaves` (sorted by key, ascending); its stored nodes go to `sink`. */
export function sortedTrieRoot(leaves: readonly SortedLeaf[], sink: NodeSink): Uint8Array {
  if (leaves.length === 0) return KECCAK256_RLP;
  const encoded = encodeRlp(node(leaves, 0, leaves.length, 0, sink));
  // The root is stored under its hash whatever its size, as the library does.
  const hash = keccak256(encoded);
  sink(hash, encoded);
  return hash;
}

const nibbleAt = (key: Uint8Array, i: number): number => (i & 1 ? key[i >> 1]! & 0x0f : key[i >> 1]! >> 4);

/** The raw node over leaves [lo, hi), whose keys share their first `depth` nibbles. */
function node(leaves: readonly SortedLeaf[], lo: number, hi: number, depth: number, sink: NodeSink): RlpItem {
  const first = leaves[lo]!.key;
  if (hi - lo === 1) return [hexPrefix(first, depth, first.length * 2, true), leaves[lo]!.value];
  // Sorted: the prefix the first and last keys share is the one all share.
  const last = leaves[hi - 1]!.key;
  let shared = depth;
  while (nibbleAt(first, shared) === nibbleAt(last, shared)) shared++;
  const branch = branchNode(leaves, lo, hi, shared, sink);
  if (shared === depth) return branch;
  return [hexPrefix(first, depth, shared, false), reference(branch, sink)];
}

function branchNode(leaves: readonly SortedLeaf[], lo: number, hi: number, depth: number, sink: NodeSink): RlpItem {
  const children: RlpItem[] = new Array(17).fill(EMPTY);
  let start = lo;
  while (start < hi) {
    const nibble = nibbleAt(leaves[start]!.key, depth);
    let end = start + 1;
    while (end < hi && nibbleAt(leaves[end]!.key, depth) === nibble) end++;
    children[nibble] = reference(node(leaves, start, end, depth + 1, sink), sink);
    start = end;
  }
  return children;
}

const EMPTY = new Uint8Array(0);

/** How a parent holds a child: inline when its encoding is under 32 bytes, else by hash (and stored). */
function reference(raw: RlpItem, sink: NodeSink): RlpItem {
  const encoded = encodeRlp(raw);
  if (encoded.length < 32) return raw;
  const hash = keccak256(encoded);
  sink(hash, encoded);
  return hash;
}

/** Hex-prefix encoding of the key's nibbles [from, to), flagged as a leaf's or an extension's path. */
function hexPrefix(key: Uint8Array, from: number, to: number, leaf: boolean): Uint8Array {
  const count = to - from;
  const odd = count & 1;
  const out = new Uint8Array((count >> 1) + 1);
  out[0] = ((leaf ? 2 : 0) + odd) << 4;
  let i = from;
  if (odd) out[0] |= nibbleAt(key, i++);
  for (let j = 1; i < to; j++, i += 2) out[j] = (nibbleAt(key, i) << 4) | nibbleAt(key, i + 1);
  return out;
}

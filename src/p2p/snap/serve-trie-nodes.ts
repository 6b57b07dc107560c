/**
 * GetTrieNodes (snap.md): trie nodes of one recent state by their path, which is how a snap-syncing peer heals the
 * parts of its state that changed while it downloaded. Paths come grouped per account: a set of one is a node of
 * the account trie (its path hex-prefix encoded), a longer set is the 32-byte account hash followed by paths in
 * that account's storage trie. Nodes go out in request order until the byte limit; a path that leads to no node
 * (or to one we lack) is left out, as geth does, so the peer sees a gap and asks again elsewhere.
 *
 * Nodes are read through the trie over the node store (its LRU in front of LevelDB), never from a flat copy.
 */
import { BranchMPTNode, ExtensionMPTNode, type MerklePatriciaTrie } from '@ethereumjs/mpt';
import { equalsBytes } from '@ethereumjs/util';
import type { GetTrieNodes } from './messages.js';
import { softLimit, storageTrieByHash } from './trie-proof.js';

/** Trie node reads per request (geth's maxTrieNodeLookups): each step down a path counts as one. */
export const MAX_TRIE_NODE_LOOKUPS = 1024;

/** The nodes `req` asks for that we hold, from the account trie of its root (undefined: the empty reply). */
export async function trieNodes(accountTrie: MerklePatriciaTrie | undefined, req: GetTrieNodes): Promise<Uint8Array[]> {
  if (accountTrie === undefined) return [];
  const limit = softLimit(req.bytes);
  const nodes: Uint8Array[] = [];
  const reads = { count: 0 };
  let bytes = 0;
  const full = (): boolean => bytes >= limit || reads.count >= MAX_TRIE_NODE_LOOKUPS;
  const add = (node: Uint8Array | undefined): void => {
    if (node === undefined) return;
    nodes.push(node);
    bytes += node.length;
  };
  for (const [accountPath, ...storagePaths] of req.paths) {
    if (full()) break;
    if (storagePaths.length === 0) {
      add(await nodeAtPath(accountTrie, compactToNibbles(accountPath!), reads));
      continue;
    }
    // A storage set names its account by the full hash, plain binary.
    if (accountPath!.length !== 32) continue;
    reads.count++;
    const storage = await storageTrieByHash(accountTrie, accountPath!);
    if (storage === undefined) continue;
    for (const path of storagePaths) {
      if (full()) break;
      add(await nodeAtPath(storage, compactToNibbles(path), reads));
    }
  }
  return nodes;
}

/**
 * The encoding of the node that sits at `path` (nibbles from the root), or undefined when the path ends inside a
 * node's key, runs past a leaf, meets an empty branch slot, or needs a node missing from the store.
 */
export async function nodeAtPath(
  trie: MerklePatriciaTrie,
  path: readonly number[],
  reads: { count: number } = { count: 0 },
): Promise<Uint8Array | undefined> {
  if (equalsBytes(trie.root(), trie.EMPTY_TRIE_ROOT)) return undefined;
  let ref: Uint8Array | Uint8Array[] = trie.root();
  let pos = 0;
  for (;;) {
    reads.count++;
    let node: Awaited<ReturnType<MerklePatriciaTrie['lookupNode']>>;
    try {
      node = await trie.lookupNode(ref);
    } catch (err) {
      if ((err as Error).message === 'Missing node in DB') return undefined;
      throw err;
    }
    if (pos === path.length) return node.serialize();
    if (node instanceof BranchMPTNode) {
      const child = node.getBranch(path[pos]!);
      if (child === null || (child instanceof Uint8Array && child.length === 0)) return undefined;
      ref = child as Uint8Array | Uint8Array[];
      pos++;
    } else if (node instanceof ExtensionMPTNode) {
      const key = node.key();
      if (path.length - pos < key.length || key.some((nibble, i) => path[pos + i] !== nibble)) return undefined;
      pos += key.length;
      ref = node.value();
    } else {
      // A leaf: nothing sits below it.
      return undefined;
    }
  }
}

/**
 * Hex-prefix (compact) decoding: the nibbles of a path. The flag nibble's odd bit says whether the first byte's low
 * nibble belongs to the path; its leaf bit does not matter for finding a node.
 */
export function compactToNibbles(compact: Uint8Array): number[] {
  if (compact.length === 0) return [];
  const nibbles: number[] = [];
  if ((compact[0]! & 0x10) !== 0) nibbles.push(compact[0]! & 0x0f);
  for (let i = 1; i < compact.length; i++) nibbles.push(compact[i]! >> 4, compact[i]! & 0x0f);
  return nibbles;
}

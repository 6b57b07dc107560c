/**
 * Trie reads shared by the snap/1 answers: boundary proofs, an account by its hashed key, and the storage trie
 * behind an account. Keys here are trie keys (keccak of the address or slot), never addresses.
 */
import { LeafMPTNode, type MerklePatriciaTrie } from '@ethereumjs/mpt';
import { type Account, bytesToUnprefixedHex, createAccountFromRLP } from '@ethereumjs/util';
import { flatAccountOf } from '../../chain/index.js';
import { SNAP_SOFT_RESPONSE_BYTES } from './answer-limit.js';

export { SNAP_SOFT_RESPONSE_BYTES } from './answer-limit.js';

/** The requested soft limit, capped at ours. */
export function softLimit(requested: bigint): number {
  return requested < BigInt(SNAP_SOFT_RESPONSE_BYTES) ? Number(requested) : SNAP_SOFT_RESPONSE_BYTES;
}

/**
 * The trie nodes on the paths to `keys`, each node once. Nodes embedded in their parent (encodings under 32 bytes)
 * are left out, as they travel inside the parent's encoding; the root always goes in.
 */
export async function proofNodes(trie: MerklePatriciaTrie, keys: readonly Uint8Array[]): Promise<Uint8Array[]> {
  const seen = new Set<string>();
  const nodes: Uint8Array[] = [];
  for (const key of keys) {
    const { stack } = await trie.findPath(key);
    stack.forEach((node, depth) => {
      const encoded = node.serialize();
      if (depth > 0 && encoded.length < 32) return;
      const id = bytesToUnprefixedHex(encoded);
      if (seen.has(id)) return;
      seen.add(id);
      nodes.push(encoded);
    });
  }
  return nodes;
}

/** The account stored under `accountHash` in the account trie, or undefined when there is none. */
export async function accountByHash(trie: MerklePatriciaTrie, accountHash: Uint8Array): Promise<Account | undefined> {
  const flat = flatAccountOf(trie, accountHash);
  if (flat !== undefined) return flat === null ? undefined : createAccountFromRLP(flat);
  const { node, remaining } = await trie.findPath(accountHash);
  if (!(node instanceof LeafMPTNode) || remaining.length !== 0) return undefined;
  return createAccountFromRLP(node.value());
}

/**
 * The storage trie of the account under `accountHash` (read through the same node store as the account trie), or
 * undefined when the account does not exist.
 */
export async function storageTrieByHash(
  accountTrie: MerklePatriciaTrie,
  accountHash: Uint8Array,
): Promise<MerklePatriciaTrie | undefined> {
  const account = await accountByHash(accountTrie, accountHash);
  if (account === undefined) return undefined;
  const trie = accountTrie.shallowCopy(false);
  trie.root(account.storageRoot);
  return trie;
}

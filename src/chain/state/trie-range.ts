/**
 * Ordered, paged reads of a secure trie (state or storage) straight from its nodes: the entries whose hashed key
 * is ≥ `start`, in key order, descending only into subtrees that can hold such keys. This is what
 * debug_accountRange and debug_storageRangeAt page through — the real trie, not a list of known accounts.
 */
import { BranchMPTNode, ExtensionMPTNode, LeafMPTNode, type MerklePatriciaTrie, type MPTNode } from '@ethereumjs/mpt';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Address } from '@ethereumjs/util';
import { compareNibbles, comparePrefix, fromNibbles, toNibbles } from './nibbles.js';
import type { FlatReader } from './flat-reader.js';
import { BufferedTrieDB } from './trie-db.js';
import { KEEP_DEPTH, readerOf, type TrieEntry, type TriePage, trieRangeNow } from './trie-range-now.js';

export type { TrieEntry, TriePage };

type NodeRef = Uint8Array | Uint8Array[];

/**
 * Up to `limit` entries with key ≥ `start` (32 bytes), and the key that starts the next page. Tries over the chain
 * database are walked synchronously (trie-range-now.ts); others, and a walk that meets a node it cannot read at
 * once (a forked chain's), node by node through the library. `keepDepth`: see trie-range-now.ts.
 */
export async function trieRange(
  trie: MerklePatriciaTrie,
  start: Uint8Array,
  limit: number,
  keepDepth = KEEP_DEPTH,
): Promise<TriePage> {
  const read = readerOf(trie);
  const page = read === undefined ? undefined : trieRangeNow(read, trie.root(), start, limit, keepDepth);
  return page ?? trieRangeByNode(trie, start, limit);
}

/**
 * trieRange of the account trie (`account` undefined) or of one account's storage trie in the state of
 * `accountTrie`, read from the flat state when it covers that state (one ordered iteration instead of a trie walk,
 * same entries: the flat state holds the trie's leaf values), else from `trie` (the trie walked otherwise: the
 * account trie itself, or that account's storage trie).
 */
export async function stateRange(
  accountTrie: MerklePatriciaTrie,
  account: Uint8Array | undefined,
  trie: MerklePatriciaTrie,
  start: Uint8Array,
  limit: number,
  keepDepth = KEEP_DEPTH,
): Promise<TriePage> {
  return (await flatRange(accountTrie, account, start, limit)) ?? trieRange(trie, start, limit, keepDepth);
}

/** No byte bound on a flat range: the pages are bounded by count, and their callers count the bytes. */
const NO_BYTE_BOUND = Number.MAX_SAFE_INTEGER;

async function flatRange(
  accountTrie: MerklePatriciaTrie,
  account: Uint8Array | undefined,
  start: Uint8Array,
  limit: number,
): Promise<TriePage | undefined> {
  const flat = flatOf(accountTrie);
  if (flat === undefined || limit < 1) return undefined;
  const root = accountTrie.root();
  if (!flat.covers(root)) return undefined;
  // One more than the page: its key is where the next page starts, as the trie walk reports it.
  const entries =
    account === undefined
      ? await flat.accountRange(root, start, limit + 1, NO_BYTE_BOUND)
      : await flat.storageRange(root, account, start, limit + 1, NO_BYTE_BOUND);
  if (entries === undefined) return undefined;
  if (entries.length <= limit) return { entries };
  return { entries: entries.slice(0, limit), next: entries[limit]!.key };
}

/**
 * The account leaf under `hashed` (keccak of the address) in the state of `accountTrie`, from the flat state:
 * undefined when it cannot answer (read the trie), null when there is no such account.
 */
export function flatAccountOf(accountTrie: MerklePatriciaTrie, hashed: Uint8Array): Uint8Array | null | undefined {
  const flat = flatOf(accountTrie);
  const root = accountTrie.root();
  return flat === undefined || !flat.covers(root) ? undefined : flat.account(root, hashed);
}

/** The flat state behind a trie over the chain database; undefined for other tries. */
function flatOf(trie: MerklePatriciaTrie): FlatReader | undefined {
  const db = (trie.database() as unknown as { db: unknown }).db;
  return db instanceof BufferedTrieDB ? db.flat : undefined;
}

async function trieRangeByNode(trie: MerklePatriciaTrie, start: Uint8Array, limit: number): Promise<TriePage> {
  const entries: TrieEntry[] = [];
  if (equalsEmptyRoot(trie)) return { entries };
  const startNibbles = toNibbles(start);
  let next: Uint8Array | undefined;
  const visit = async (ref: NodeRef, path: number[], read?: MPTNode): Promise<boolean> => {
    // Every key below `path` is smaller than `start`: skip the subtree.
    if (comparePrefix(path, startNibbles) < 0) return true;
    const node: MPTNode = read ?? (await trie.lookupNode(ref));
    if (node instanceof LeafMPTNode) {
      const full = path.concat(node.key());
      if (compareNibbles(full, startNibbles) < 0) return true;
      const key = fromNibbles(full);
      if (entries.length === limit) {
        next = key;
        return false;
      }
      entries.push({ key, value: node.value() });
      return true;
    }
    if (node instanceof ExtensionMPTNode) return visit(node.value(), path.concat(node.key()));
    if (node instanceof BranchMPTNode) {
      // The children are read from the database together, not one after the other: each read is a trip through
      // LevelDB's thread pool, and on a busy machine the wait between trips, not the read, made a snap answer of
      // 3,000 accounts take seconds. A page may end inside this branch, so a few children are read for nothing.
      const children: { ref: NodeRef; path: number[] }[] = [];
      for (let i = 0; i < 16; i++) {
        const child = node.getBranch(i);
        if (child === null || (child instanceof Uint8Array && child.length === 0)) continue;
        const childPath = path.concat(i);
        if (comparePrefix(childPath, startNibbles) >= 0) children.push({ ref: child as NodeRef, path: childPath });
      }
      const read = await Promise.all(children.map((c) => trie.lookupNode(c.ref)));
      for (const [i, c] of children.entries()) if (!(await visit(c.ref, c.path, read[i]))) return false;
      return true;
    }
    return true;
  };
  await visit(trie.root(), []);
  return { entries, ...(next !== undefined ? { next } : {}) };
}

/** The account trie behind a state manager positioned at a block's state root. */
export function accountTrieOf(state: MerkleStateManager): MerklePatriciaTrie {
  return (state as unknown as { _trie: MerklePatriciaTrie })._trie;
}

/** The storage trie of `address` in that state (an empty trie for accounts without storage or absent ones). */
export async function storageTrieOf(state: MerkleStateManager, address: Uint8Array): Promise<MerklePatriciaTrie> {
  const account = await state.getAccount(new Address(address));
  const trie = accountTrieOf(state).shallowCopy(false);
  trie.root(account?.storageRoot ?? trie.EMPTY_TRIE_ROOT);
  return trie;
}

function equalsEmptyRoot(trie: MerklePatriciaTrie): boolean {
  return Buffer.from(trie.root()).equals(Buffer.from(trie.EMPTY_TRIE_ROOT));
}

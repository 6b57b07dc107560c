/**
 * A genesis allocation's state written straight as trie nodes (sorted-trie.ts), with its flat-state rows listed from
 * the allocation itself: the genesis write's table change then is staged as listed (state/flat-table.ts) instead of
 * by diffing the new trie against the empty one.
 */
import { bytesToUnprefixedHex, concatBytes, KECCAK256_NULL, KECCAK256_RLP, unpadBytes } from '@ethereumjs/util';
import { keccak256 } from '../base/crypto.js';
import { unpaddedBytes } from '../base/unpadded-bytes.js';
import { encodeRlp } from '../codec/rlp-encode.js';
import type { FlatAccountChange, FlatChanges, FlatLeafChange } from '../db/flat-changes.js';
import type { GenesisAccount } from '../networks/types.js';
import type { WrittenKeys } from '../state/written-keys.js';
import { type NodeSink, type SortedLeaf, sortedTrieRoot } from './sorted-trie.js';

/** Where @ethereumjs's state manager keeps code in the trie database: 'c' then the code hash. */
const CODE_PREFIX = Uint8Array.of(0x63);

export interface AllocState {
  readonly stateRoot: Uint8Array;
  /** The flat-state rows of the allocation, as the change from the empty state. */
  readonly flatChanges: FlatChanges;
}

/**
 * Builds `alloc`'s state: trie nodes and code go into `nodes` (hex keys, as the trie database holds them). A repeated
 * address or slot keeps its last entry, as writing the allocation in order would; zero slots are absent.
 */
export function buildAllocState(
  alloc: readonly GenesisAccount[],
  nodes: Map<string, Uint8Array>,
  written?: WrittenKeys,
): AllocState {
  const sink: NodeSink = (hash, encoded) => nodes.set(bytesToUnprefixedHex(hash), encoded);
  const byKey = new Map<string, GenesisAccount>();
  for (const account of alloc) byKey.set(bytesToUnprefixedHex(account.address), account);
  const accounts: FlatAccountChange[] = [];
  for (const account of byKey.values()) {
    written?.noteAccount(account.address);
    const slots = storageLeaves(account, written);
    const storageRoot = sortedTrieRoot(slots, sink);
    let codeHash = KECCAK256_NULL;
    if (account.code !== undefined && account.code.length > 0) {
      codeHash = keccak256(account.code);
      nodes.set(bytesToUnprefixedHex(concatBytes(CODE_PREFIX, codeHash)), account.code);
    }
    const value = encodeRlp([
      unpaddedBytes(account.nonce ?? 0n),
      unpaddedBytes(account.balance),
      storageRoot,
      codeHash,
    ]);
    accounts.push({ hashedKey: keccak256(account.address), before: null, after: value, slots: toChanges(slots) });
  }
  accounts.sort(byHashedKey);
  const stateRoot = sortedTrieRoot(
    accounts.map((a) => ({ key: a.hashedKey, value: a.after! })),
    sink,
  );
  return { stateRoot, flatChanges: { fromRoot: KECCAK256_RLP, toRoot: stateRoot, accounts } };
}

function storageLeaves(account: GenesisAccount, written: WrittenKeys | undefined): SortedLeaf[] {
  if (account.storage === undefined || account.storage.length === 0) return [];
  const bySlot = new Map<string, SortedLeaf>();
  for (const [slot, value] of account.storage) {
    written?.noteSlot(account.address, slot);
    const key = keccak256(slot);
    const unpadded = unpadBytes(value);
    const hex = bytesToUnprefixedHex(key);
    if (unpadded.length === 0) bySlot.delete(hex);
    else bySlot.set(hex, { key, value: encodeRlp(unpadded) });
  }
  return [...bySlot.values()].sort(byKey);
}

const toChanges = (leaves: readonly SortedLeaf[]): FlatLeafChange[] =>
  leaves.map((l) => ({ hashedKey: l.key, before: null, after: l.value }));

/** Byte order of two 32-byte keys (util's compareBytes goes through bigints: most of the sort's cost). */
function compareKeys(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < 32; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}
const byKey = (a: SortedLeaf, b: SortedLeaf) => compareKeys(a.key, b.key);
const byHashedKey = (a: FlatAccountChange, b: FlatAccountChange) => compareKeys(a.hashedKey, b.hashedKey);

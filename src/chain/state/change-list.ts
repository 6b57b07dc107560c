/**
 * The flat-state changes (db/flat-changes.ts) of a block executed on a `ChainStateManager` (block import, and
 * assembly off the dev miner's flat state), so the head move stages them as listed instead of walking the old and
 * new tries for their diff (state/flat-table.ts `stageDiff`: ~10 % of a state-heavy block's import).
 *
 * Before values come from the state manager's own flat reads at the block's parent root (its first read of each key
 * is the parent's value: the block's writes wait in its caches until the flush); a written key it never read there
 * is looked up in the flat state at that root. After values are what the flush puts into the tries: each account
 * trie leaf, each slot of `flushStorage`. A storage emptied other than slot by slot (a creation over an address
 * with storage, an account deleted with storage) cannot be listed, nor can a key whose parent value the flat state
 * cannot say: then no list, and the table walks the tries as before.
 */
import { RLP } from '@ethereumjs/rlp';
import { bytesToUnprefixedHex, equalsBytes, KECCAK256_RLP, unprefixedHexToBytes } from '@ethereumjs/util';
import { keccak256 } from '../base/crypto.js';
import type { FlatAccountChange, FlatChanges, FlatLeafChange } from '../db/flat-changes.js';
import type { FlatLookup } from './flat-lookup.js';

export class ChangeList {
  /** Hashed address hex → the account leaf at `fromRoot` (null: absent). */
  private readonly accountsBefore = new Map<string, Uint8Array | null>();
  /** Hashed address hex → slot hex (not hashed) → the slot's leaf at `fromRoot`. */
  private readonly slotsBefore = new Map<string, Map<string, Uint8Array | null>>();
  /** Hashed address hex → the leaf the flush put (null: deleted). */
  private readonly accountsAfter = new Map<string, Uint8Array | null>();
  /** Hashed address hex → slot hex (not hashed) → the slot's leaf the flush put (null: deleted). */
  private readonly slotsAfter = new Map<string, Map<string, Uint8Array | null>>();
  /** Something happened that the list cannot say (see the top of this file). */
  private spoiled = false;

  constructor(
    readonly fromRoot: Uint8Array,
    private readonly flat: FlatLookup,
  ) {}

  spoil(): void {
    this.spoiled = true;
  }

  /** A flat read of an account leaf at `root`; kept when it is the first of the key at the parent root. */
  readAccount(root: Uint8Array, hashed: Uint8Array, leaf: Uint8Array | null): void {
    if (!equalsBytes(root, this.fromRoot)) return;
    const key = bytesToUnprefixedHex(hashed);
    if (!this.accountsBefore.has(key)) this.accountsBefore.set(key, leaf);
  }

  /** A flat read of a slot's leaf at `root` (`slot` not hashed). */
  readSlot(root: Uint8Array, hashed: Uint8Array, slot: Uint8Array, leaf: Uint8Array | null): void {
    if (!equalsBytes(root, this.fromRoot)) return;
    const account = bytesToUnprefixedHex(hashed);
    let slots = this.slotsBefore.get(account);
    if (slots === undefined) this.slotsBefore.set(account, (slots = new Map()));
    const key = bytesToUnprefixedHex(slot);
    if (!slots.has(key)) slots.set(key, leaf);
  }

  /** The account trie's flushed leaves (hashed keys, as the trie's batch collected them). */
  accountsWritten(updates: Iterable<readonly [Uint8Array, Uint8Array | null]>): void {
    for (const [hashed, leaf] of updates) this.accountsAfter.set(bytesToUnprefixedHex(hashed), leaf);
  }

  /** One account's flushed slots: slot hex (not hashed) and the value put (unpadded; empty deletes). */
  slotsWritten(hashedAccount: Uint8Array, slots: Iterable<readonly [string, Uint8Array]>): void {
    const account = bytesToUnprefixedHex(hashedAccount);
    let written = this.slotsAfter.get(account);
    if (written === undefined) this.slotsAfter.set(account, (written = new Map()));
    for (const [slot, value] of slots) written.set(slot, value.length === 0 ? null : RLP.encode(value));
  }

  /** The changes from `fromRoot` to `toRoot` (the root the flush gave), or undefined when they cannot be listed. */
  take(toRoot: Uint8Array): FlatChanges | undefined {
    if (this.spoiled) return undefined;
    const accounts: FlatAccountChange[] = [];
    for (const key of this.slotsAfter.keys()) if (!this.accountsAfter.has(key)) return undefined;
    for (const [key, after] of this.accountsAfter) {
      const hashedKey = unprefixedHexToBytes(key);
      const before = this.accountsBefore.has(key)
        ? this.accountsBefore.get(key)!
        : this.flat.account(this.fromRoot, hashedKey);
      if (before === undefined) return undefined;
      const storageBefore = storageRoot(before);
      const written = this.slotsAfter.get(key);
      // A storage root that moved without its slots listed (emptied at once) leaves table entries the list misses.
      if (written === undefined && !equalsBytes(storageBefore, storageRoot(after))) return undefined;
      const slots: FlatLeafChange[] = [];
      const read = this.slotsBefore.get(key);
      for (const [slot, leaf] of written ?? []) {
        const slotBytes = unprefixedHexToBytes(slot);
        const prior = read?.has(slot)
          ? read.get(slot)!
          : this.flat.slot(this.fromRoot, hashedKey, storageBefore, slotBytes);
        if (prior === undefined) return undefined;
        slots.push({ hashedKey: keccak256(slotBytes), before: prior, after: leaf });
      }
      accounts.push({ hashedKey, before, after, slots });
    }
    return { fromRoot: this.fromRoot, toRoot, accounts };
  }
}

/** The storage root of an account leaf (the empty trie's for none). */
function storageRoot(leaf: Uint8Array | null): Uint8Array {
  if (leaf === null) return KECCAK256_RLP;
  return (RLP.decode(leaf) as Uint8Array[])[2]!;
}

/**
 * The dev head's world state as plain objects, for the miner's block assembly on the dev chain.
 *
 * Why: @ethereumjs/statemanager keeps each account as RLP in its caches, so every `getAccount` of the EVM decodes
 * one and every `putAccount` encodes one again (dozens per ERC-20 transfer), and it journals through a diff map per
 * checkpoint and cache. Here accounts are objects (copied, never encoded, on each access), storage and code sit in
 * maps, and a checkpoint is a position in one undo journal. Execution never touches the trie: `getStateRoot` writes
 * only what changed since the last root into the state manager the miner keeps anyway (the backing): each account's
 * slots as one batch into its storage trie (the library would write each slot into the trie at once, on every
 * SSTORE), then the accounts through its flush, so roots, eth_getProof and the database stay exactly as they were.
 *
 * Reads that miss go to the backing once (slots straight from its storage tries) and stay here. Accounts' storage roots are those of the last root
 * computation while a block runs (only EIP-7610's collision check reads them, and an address that could collide
 * has a nonce or code by then, which are exact).
 */
import type { AccountFields, StateManagerInterface } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { Account, type Address, equalsBytes, KECCAK256_RLP, unpadBytes } from '@ethereumjs/util';
import type { FlatAccountChange, FlatChanges, FlatLeafChange } from '../db/flat-changes.js';
import { hexKey } from '../db/hex-key.js';
import { keccak256 } from '../base/crypto.js';
import { emptyObjectArray } from '../base/packed-map.js';
import type { ChainStateManager } from '../state/state-view.js';
import { FlatOriginalStorage } from './flat-original-storage.js';

/** One address's account: null = known to be absent. */
interface AccountEntry {
  readonly address: Address;
  account: Account | null;
  /** keccak(address), once: the flat state's key (see `takeFlatChanges`). */
  hashed?: Uint8Array;
  /** The account's leaf as the last taken changes left it, while `leafEpoch` is the state's (else unknown). */
  leaf?: Uint8Array | null;
  leafEpoch?: number;
}

/** One address's storage as far as it was read or written; `cleared`: emptied since the last root (misses read 0). */
interface StorageEntry {
  readonly address: Address;
  slots: Map<string, Uint8Array>;
  cleared: boolean;
  /** keccak(slot) by slot key, once per slot written. */
  hashedSlots?: Map<string, Uint8Array>;
}

/** How to take back one write (the journal holds these in write order). */
type Undo =
  | { readonly kind: 'account'; readonly key: string; readonly prev: Account | null }
  | {
      readonly kind: 'slot';
      readonly storage: StorageEntry;
      readonly key: string;
      readonly slot: string;
      readonly prev: Uint8Array;
    }
  | { readonly kind: 'code'; readonly key: string; readonly prev: Uint8Array | undefined }
  | {
      readonly kind: 'clear';
      readonly storage: StorageEntry;
      readonly key: string;
      readonly prev: Map<string, Uint8Array>;
      readonly prevCleared: boolean;
    };

const EMPTY = new Uint8Array(0);
const hex = hexKey;
/** Slot keys back to bytes at the root computation: Node's native decoder. */
const hexToBytes = (h: string): Uint8Array => new Uint8Array(Buffer.from(h, 'hex'));

/** A copy the caller may change freely: the EVM edits the accounts it reads before it puts them back. */
function copyAccount(account: Account): Account {
  return Object.assign(Object.create(Account.prototype) as Account, account);
}

export class FlatState implements StateManagerInterface {
  private readonly accounts = new Map<string, AccountEntry>();
  private readonly storage = new Map<string, StorageEntry>();
  private readonly code = new Map<string, Uint8Array>();
  private readonly journal: Undo[] = emptyObjectArray<Undo>();
  /** Journal length at each open checkpoint. */
  private readonly checkpoints: number[] = [];
  /** Journal entries below this index are in the backing already (see `undo`). */
  private written = 0;
  /** Written since the last root, by address key: accounts, code, and per address the slot keys. */
  private readonly dirtyAccounts = new Set<string>();
  private readonly dirtyCode = new Set<string>();
  private readonly dirtySlots = new Map<string, Set<string>>();
  /**
   * Addresses whose storage is `cleared`: the root walks these, not every storage held (thousands of entries on a
   * long dev session before the warm state's bound, walked on every block's root).
   */
  private readonly clearedStorage = new Set<string>();

  /**
   * The block's flat-state changes (db/flat-changes.ts), recorded as it runs: the root they start from (undefined:
   * not known, nothing recorded is handed out), and each account and slot's value there, taken at its first write.
   */
  private changesFrom: Uint8Array | undefined;
  private readonly baseAccounts = new Map<string, Account | null>();
  private readonly baseSlots = new Map<string, Map<string, Uint8Array>>();
  /** A storage was emptied: its old slots are not listed here, so the table walks the tries instead. */
  private baseCleared = false;
  /** Bumped whenever writes went unrecorded: every entry's kept `leaf` is then unknown. */
  private leafEpoch = 0;

  readonly originalStorageCache: FlatOriginalStorage;

  constructor(private readonly backing: ChainStateManager) {
    this.originalStorageCache = new FlatOriginalStorage(this);
  }

  private async accountEntry(address: Address, key = hex(address.bytes)): Promise<AccountEntry> {
    let entry = this.accounts.get(key);
    if (entry === undefined) {
      const account = await this.backing.getAccount(address);
      entry = { address, account: account ?? null };
      this.accounts.set(key, entry);
    }
    return entry;
  }

  async getAccount(address: Address): Promise<Account | undefined> {
    const entry = this.accounts.get(hex(address.bytes)) ?? (await this.accountEntry(address));
    return entry.account === null ? undefined : copyAccount(entry.account);
  }

  async putAccount(address: Address, account?: Account): Promise<void> {
    const key = hex(address.bytes);
    const entry = this.accounts.get(key) ?? (await this.accountEntry(address, key));
    this.setAccount(entry, key, account === undefined ? null : copyAccount(account));
  }

  private setAccount(entry: AccountEntry, key: string, account: Account | null): void {
    if (this.changesFrom !== undefined && !this.baseAccounts.has(key))
      this.baseAccounts.set(key, entry.account === null ? null : copyAccount(entry.account));
    this.journal.push({ kind: 'account', key, prev: entry.account });
    entry.account = account;
    this.dirtyAccounts.add(key);
  }

  async deleteAccount(address: Address): Promise<void> {
    const key = hex(address.bytes);
    const entry = this.accounts.get(key) ?? (await this.accountEntry(address, key));
    this.setAccount(entry, key, null);
    // A deleted account's storage goes with it: an account made again at the address starts empty.
    this.clearSlots(this.storageEntry(address, key), key);
  }

  async modifyAccountFields(address: Address, fields: AccountFields): Promise<void> {
    const account = (await this.getAccount(address)) ?? new Account();
    if (fields.nonce !== undefined) account.nonce = fields.nonce;
    if (fields.balance !== undefined) account.balance = fields.balance;
    if (fields.storageRoot !== undefined) account.storageRoot = fields.storageRoot;
    if (fields.codeHash !== undefined) account.codeHash = fields.codeHash;
    if (fields.codeSize !== undefined) account.codeSize = fields.codeSize;
    await this.putAccount(address, account);
  }

  async putCode(address: Address, value: Uint8Array): Promise<void> {
    const key = hex(address.bytes);
    this.journal.push({ kind: 'code', key, prev: this.code.get(key) });
    this.code.set(key, value);
    this.dirtyCode.add(key);
    await this.modifyAccountFields(address, { codeHash: keccak256(value) });
  }

  async getCode(address: Address): Promise<Uint8Array> {
    const key = hex(address.bytes);
    const account = (this.accounts.get(key) ?? (await this.accountEntry(address, key))).account;
    if (account === null || !account.isContract()) return EMPTY;
    const known = this.code.get(key);
    if (known !== undefined) return known;
    const code = await this.backing.getCode(address);
    this.code.set(key, code);
    return code;
  }

  async getCodeSize(address: Address): Promise<number> {
    return (await this.getCode(address)).length;
  }

  private storageEntry(address: Address, key: string): StorageEntry {
    let entry = this.storage.get(key);
    if (entry === undefined) {
      entry = { address, slots: new Map(), cleared: false };
      this.storage.set(key, entry);
    }
    return entry;
  }

  async getStorage(address: Address, slotKey: Uint8Array): Promise<Uint8Array> {
    if (slotKey.length !== 32) throw new Error('Storage key must be 32 bytes long');
    const key = hex(address.bytes);
    const storage = this.storageEntry(address, key);
    const slot = hex(slotKey);
    const known = storage.slots.get(slot);
    if (known !== undefined) return known;
    const account = (this.accounts.get(key) ?? (await this.accountEntry(address, key))).account;
    if (account === null) return EMPTY;
    // Past the backing's caches: slots are written with writeSlots, so a value it cached would go stale.
    const value = storage.cleared ? EMPTY : await this.backing.readSlot(address, slotKey);
    storage.slots.set(slot, value);
    return value;
  }

  /** The value `getStorage` answers, when this state holds the slot (no await); else undefined. */
  knownStorage(address: Address, slotKey: Uint8Array): Uint8Array | undefined {
    if (slotKey.length !== 32) return undefined;
    return this.storage.get(hex(address.bytes))?.slots.get(hex(slotKey));
  }

  async putStorage(address: Address, slotKey: Uint8Array, value: Uint8Array): Promise<void> {
    if (slotKey.length !== 32) throw new Error('Storage key must be 32 bytes long');
    if (value.length > 32) throw new Error('Storage value cannot be longer than 32 bytes');
    const key = hex(address.bytes);
    const owner = this.accounts.get(key) ?? (await this.accountEntry(address, key));
    if (owner.account === null) throw new Error('putStorage() called on non-existing account');
    // The value before is read first, so a revert can always put it back (also after a root was computed).
    const prev = await this.getStorage(address, slotKey);
    this.writeSlot(owner.account, address, key, slotKey, value, prev);
  }

  /**
   * `putStorage` without an await where this state holds the account and the slot (the lean SSTORE,
   * lean-storage-opcodes.ts); false, with nothing done, where it does not.
   */
  putKnownStorage(address: Address, slotKey: Uint8Array, value: Uint8Array): boolean {
    if (slotKey.length !== 32 || value.length > 32) return false;
    const key = hex(address.bytes);
    const account = this.accounts.get(key)?.account;
    if (account === undefined || account === null) return false;
    const prev = this.storage.get(key)?.slots.get(hex(slotKey));
    if (prev === undefined) return false;
    this.writeSlot(account, address, key, slotKey, value, prev);
    return true;
  }

  /** The account as `getAccount` answers it (a copy), when this state holds it; else undefined. */
  knownAccount(address: Address): Account | undefined {
    const account = this.accounts.get(hex(address.bytes))?.account;
    return account === undefined || account === null ? undefined : copyAccount(account);
  }

  private writeSlot(
    account: Account,
    address: Address,
    key: string,
    slotKey: Uint8Array,
    value: Uint8Array,
    prev: Uint8Array,
  ): void {
    // The account's leaf changes with its storage root: its value at the recorded start is kept too.
    if (this.changesFrom !== undefined && !this.baseAccounts.has(key)) this.baseAccounts.set(key, copyAccount(account));
    const storage = this.storageEntry(address, key);
    const slot = hex(slotKey);
    if (this.changesFrom !== undefined) {
      let base = this.baseSlots.get(key);
      if (base === undefined) this.baseSlots.set(key, (base = new Map()));
      if (!base.has(slot)) base.set(slot, prev);
    }
    this.journal.push({ kind: 'slot', storage, key, slot, prev });
    storage.slots.set(slot, unpadBytes(value));
    this.markSlot(key, slot);
  }

  private markSlot(key: string, slot: string): void {
    let slots = this.dirtySlots.get(key);
    if (slots === undefined) this.dirtySlots.set(key, (slots = new Set()));
    slots.add(slot);
  }

  async clearStorage(address: Address): Promise<void> {
    const key = hex(address.bytes);
    // Its entry is there at the root computation, which walks every address whose storage was emptied.
    if (!this.accounts.has(key)) await this.accountEntry(address, key);
    this.clearSlots(this.storageEntry(address, key), key);
  }

  private clearSlots(storage: StorageEntry, key: string): void {
    this.baseCleared = true;
    this.journal.push({ kind: 'clear', storage, key, prev: storage.slots, prevCleared: storage.cleared });
    storage.slots = new Map();
    storage.cleared = true;
    this.clearedStorage.add(key);
    this.dirtySlots.delete(key);
  }

  async checkpoint(): Promise<void> {
    this.checkpoints.push(this.journal.length);
  }

  async commit(): Promise<void> {
    if (this.checkpoints.pop() === undefined) throw new Error('flat state: commit without a checkpoint');
    if (this.checkpoints.length === 0) this.settle();
  }

  async revert(): Promise<void> {
    const at = this.checkpoints.pop();
    if (at === undefined) throw new Error('flat state: revert without a checkpoint');
    while (this.journal.length > at) this.undo(this.journal.pop()!, this.journal.length);
    if (this.checkpoints.length === 0) this.settle();
  }

  /** No checkpoint open: nothing can be taken back any more. */
  private settle(): void {
    this.journal.length = 0;
    this.written = 0;
    this.originalStorageCache.clear();
  }

  private undo(entry: Undo, index: number): void {
    switch (entry.kind) {
      case 'account':
        this.accounts.get(entry.key)!.account = entry.prev;
        this.dirtyAccounts.add(entry.key);
        return;
      case 'slot':
        entry.storage.slots.set(entry.slot, entry.prev);
        this.markSlot(entry.key, entry.slot);
        return;
      case 'code':
        if (entry.prev === undefined) this.code.delete(entry.key);
        else this.code.set(entry.key, entry.prev);
        this.dirtyCode.add(entry.key);
        return;
      case 'clear':
        // The backing holds no copy of the storage the clear dropped: only a clear not yet written can be undone.
        if (index < this.written) throw new Error('flat state: a storage clear already in the root cannot be reverted');
        entry.storage.slots = entry.prev;
        entry.storage.cleared = entry.prevCleared;
        if (!entry.prevCleared) this.clearedStorage.delete(entry.key);
        // Slots written before the clear are dirty again.
        for (const slot of entry.prev.keys()) this.markSlot(entry.key, slot);
        return;
    }
  }

  /**
   * Writes what changed since the last root into the backing (emptied storage first, then each account's slots as
   * one batch into its storage trie, its code, the account with its new storage root), and returns the backing's root.
   */
  async getStateRoot(): Promise<Uint8Array> {
    const keys = new Set([...this.dirtyAccounts, ...this.dirtyCode, ...this.dirtySlots.keys()]);
    for (const key of this.clearedStorage) keys.add(key);
    const backing = this.backing;
    for (const key of keys) {
      const entry = this.accounts.get(key)!;
      const account = entry.account;
      const storage = this.storage.get(key);
      if (account === null) {
        await backing.deleteAccount(entry.address);
        if (storage !== undefined) storage.cleared = false;
        continue;
      }
      if (storage?.cleared === true) {
        // Deleted or made anew here: the backing forgets what it cached for the address (its flush would put a
        // code read earlier back on the account), and empties the storage trie it may hold for it.
        await backing.deleteAccount(entry.address);
        await backing.clearStorage(entry.address);
        account.storageRoot = KECCAK256_RLP;
        storage.cleared = false;
      }
      // Otherwise the account's storage root is the backing's: read from it, or set by the last root.
      const slots = this.dirtySlots.get(key);
      if (slots !== undefined && storage !== undefined) {
        const writes = [...slots].map((slot) => [hexToBytes(slot), storage.slots.get(slot)!] as const);
        account.storageRoot = await backing.writeSlots(entry.address, account.storageRoot, writes);
      }
      const code = this.dirtyCode.has(key) ? this.code.get(key) : undefined;
      if (code !== undefined) await backing.putCode(entry.address, code);
      await backing.putAccount(entry.address, copyAccount(account));
    }
    this.dirtyAccounts.clear();
    this.dirtyCode.clear();
    this.dirtySlots.clear();
    // Every one was in `keys`, and is no longer cleared.
    this.clearedStorage.clear();
    this.written = this.journal.length;
    return backing.getStateRoot();
  }

  /** A block starts on `parentRoot`: what is recorded from here on are its changes (see `takeFlatChanges`). */
  beginFlatChanges(parentRoot: Uint8Array): void {
    if (this.changesFrom !== undefined && equalsBytes(this.changesFrom, parentRoot)) return;
    // Recorded from another start (a root computed and not taken): dropped. Recording starts over here only if
    // nothing was written since the last root, i.e. the accounts and slots held are the state at `parentRoot`.
    this.resetChanges(undefined);
    this.leafEpoch++;
    const unwritten = this.dirtyAccounts.size > 0 || this.dirtySlots.size > 0 || this.dirtyCode.size > 0;
    if (!unwritten && this.journal.length === 0) this.changesFrom = parentRoot;
  }

  private resetChanges(from: Uint8Array | undefined): void {
    this.changesFrom = from;
    this.baseAccounts.clear();
    this.baseSlots.clear();
    this.baseCleared = false;
  }

  /**
   * The changes from the recorded start to `toRoot` (what `getStateRoot` just returned), or undefined when they
   * cannot be listed; either way recording starts again at `toRoot`. Only the leaves that differ are listed.
   */
  takeFlatChanges(toRoot: Uint8Array): FlatChanges | undefined {
    const fromRoot = this.changesFrom;
    const usable = fromRoot !== undefined && !this.baseCleared;
    const accounts: FlatAccountChange[] = [];
    if (usable) {
      for (const [key, before] of this.baseAccounts) accounts.push(this.accountChange(key, before));
    }
    // Not listed: the leaves of what changed were not kept, so none kept is trusted any more.
    if (!usable) this.leafEpoch++;
    this.resetChanges(toRoot);
    return usable ? { fromRoot, toRoot, accounts } : undefined;
  }

  /** Every written slot's account is in `baseAccounts` (putStorage), so its leaf's before is known. */
  private accountChange(key: string, before: Account | null): FlatAccountChange {
    const slots = this.baseSlots.get(key);
    const entry = this.accounts.get(key)!;
    const after = entry.account === null ? null : entry.account.serialize();
    const storage = this.storage.get(key);
    const slotChanges: FlatLeafChange[] = [];
    if (slots !== undefined && storage !== undefined) {
      const hashedSlots = (storage.hashedSlots ??= new Map());
      for (const [slot, prev] of slots) {
        const now = storage.slots.get(slot) ?? EMPTY;
        if (equalsBytes(prev, now)) continue;
        let hashedKey = hashedSlots.get(slot);
        if (hashedKey === undefined) hashedSlots.set(slot, (hashedKey = keccak256(hexToBytes(slot))));
        slotChanges.push({
          hashedKey,
          before: prev.length === 0 ? null : RLP.encode(prev),
          after: now.length === 0 ? null : RLP.encode(now),
        });
      }
    }
    // The leaf the last listed changes left is the leaf at their end root, where these start: not encoded again.
    const kept = entry.leafEpoch === this.leafEpoch ? entry.leaf : undefined;
    const beforeLeaf = kept !== undefined ? kept : before === null ? null : before.serialize();
    entry.leaf = after;
    entry.leafEpoch = this.leafEpoch;
    entry.hashed ??= keccak256(entry.address.bytes);
    return { hashedKey: entry.hashed, before: beforeLeaf, after, slots: slotChanges };
  }

  /**
   * Forgets every account, slot and code held, keeping this object and its maps (the VM made over it and the
   * optimised code of its callers stay): what a new flat state over the same backing would hold. Only between
   * blocks, with nothing written since the last root; false, with nothing done, otherwise.
   */
  emptyCaches(): boolean {
    const unwritten = this.dirtyAccounts.size > 0 || this.dirtySlots.size > 0 || this.dirtyCode.size > 0;
    if (unwritten || this.checkpoints.length > 0 || this.journal.length > 0) return false;
    this.accounts.clear();
    this.storage.clear();
    this.clearedStorage.clear();
    this.code.clear();
    this.resetChanges(undefined);
    this.leafEpoch++;
    this.written = 0;
    this.originalStorageCache.clear();
    return true;
  }

  async setStateRoot(): Promise<void> {
    throw new Error('flat state: follows its backing state; open a new one for another root');
  }

  async hasStateRoot(root: Uint8Array): Promise<boolean> {
    return this.backing.hasStateRoot(root);
  }

  clearCaches(): void {}

  shallowCopy(): StateManagerInterface {
    throw new Error('flat state: not copied (it is the one state of the dev head)');
  }
}

/** The flat state over each opened state (see block-runner.ts), made on first use, gone with the opened state. */
const flatStates = new WeakMap<ChainStateManager, FlatState>();

export function flatStateOver(backing: ChainStateManager): FlatState {
  let flat = flatStates.get(backing);
  if (flat === undefined) flatStates.set(backing, (flat = new FlatState(backing)));
  return flat;
}

/** The flat state over `backing` if one was made (the miner executes on it), else undefined. */
export function flatStateIfAny(backing: ChainStateManager): FlatState | undefined {
  return flatStates.get(backing);
}

/** Someone wrote the backing directly: the next block starts a new flat state. */
export function forgetFlatState(backing: ChainStateManager): void {
  flatStates.delete(backing);
}

/**
 * The state a message call (eth_call, eth_estimateGas) runs on: one block's state read through a shared
 * in-memory copy of what calls have read from it, under a per-call write overlay that is thrown away.
 *
 * A block's state never changes (it is addressed by the block hash), so what one call read from the trie
 * stays true for every later call on that block: `BlockReads` keeps accounts, code and storage slots as
 * decoded values, shared by the executor's VMs, and serves a hot contract's reads without a trie walk, RLP
 * decoding or a storage-trie object per call (with MerkleStateManager's caches a call's reads were reverted
 * with its checkpoint, so every call walked the tries again). A new head is another block, so it gets
 * another executor and another `BlockReads`: nothing is invalidated, and calls at older blocks keep theirs.
 *
 * `CallState` implements the state-manager interface the EVM uses: reads go overlay → shared reads → trie,
 * writes go to the overlay with an undo journal for the EVM's checkpoints, and `reset()` starts the next call
 * from the block's state again (it replaces the outer checkpoint and revert). Accounts are handed out and
 * taken in as copies, because the EVM mutates the objects it gets. Storage values are kept as the library
 * gives them (leading zeros stripped, empty for zero).
 */
import type { Common, StateManagerInterface } from '@ethereumjs/common';
import { Account, type Address, KECCAK256_NULL, KECCAK256_RLP, equalsBytes, unpadBytes } from '@ethereumjs/util';
import { keccak256 } from '../base/crypto.js';
import { hexKey } from '../db/hex-key.js';
import type { OverrideBase } from './overrides.js';
import { openReadState } from '../state/state-view.js';
import type { TrieNodeStore } from '../state/trie-db.js';

/**
 * Bounds of one block's shared reads (entries; code in bytes), ~15 MB at most per block (the chain keeps
 * `CacheLimits.callExecutors` blocks' executors). Past a bound that kind is dropped and refilled.
 */
const MAX_ACCOUNTS = 10_000;
const MAX_SLOTS = 50_000;
const MAX_CODE_BYTES = 4 * 1024 * 1024;

const EMPTY = new Uint8Array(0);

/**
 * Where `BlockReads` reads a block's state: the trie and flat state on the main thread, the main thread's answers
 * in a call worker (remote-reads.ts).
 */
export interface StateReader {
  getAccount(address: Address): Promise<Account | undefined>;
  getCode(address: Address): Promise<Uint8Array>;
  getStorage(address: Address, slot: Uint8Array): Promise<Uint8Array>;
}

/** A node store to open the block's state on, or what opens a `StateReader` (called again when the slots are dropped). */
export type StateSource = TrieNodeStore | (() => StateReader);

/** Read-only, shared: the decoded values calls have read from one block's state. */
export class BlockReads {
  private reader: StateReader;
  /** By unprefixed address hex; null = no account. Never handed out (callers get copies). */
  private readonly accounts = new Map<string, Account | null>();
  /** By unprefixed address hex: the account's code (the same object every time, which the jump-analysis cache keys on). */
  private readonly codes = new Map<string, Uint8Array>();
  private codeBytes = 0;
  /** By address hex + slot hex: the stored value, leading zeros stripped (empty = zero). */
  private readonly slots = new Map<string, Uint8Array>();

  constructor(
    private readonly store: StateSource,
    private readonly common: Common,
    private readonly stateRoot: Uint8Array,
  ) {
    this.reader = this.open();
  }

  private open(): StateReader {
    return typeof this.store === 'function' ? this.store() : openReadState(this.store, this.common, this.stateRoot);
  }

  /** The account at `key` (`address` as unprefixed hex), undefined while not read yet. */
  knownAccount(key: string): Account | null | undefined {
    return this.accounts.get(key);
  }

  async loadAccount(key: string, address: Address): Promise<Account | null> {
    const account = (await this.reader.getAccount(address)) ?? null;
    if (this.accounts.size >= MAX_ACCOUNTS) this.accounts.clear();
    this.accounts.set(key, account);
    return account;
  }

  knownCode(key: string): Uint8Array | undefined {
    return this.codes.get(key);
  }

  async loadCode(key: string, address: Address): Promise<Uint8Array> {
    const code = await this.reader.getCode(address);
    const known = this.codes.get(key); // a concurrent load got there first: keep one object
    if (known !== undefined) return known;
    if (this.codeBytes + code.length > MAX_CODE_BYTES) {
      this.codes.clear();
      this.codeBytes = 0;
    }
    this.codes.set(key, code);
    this.codeBytes += code.length;
    return code;
  }

  knownSlot(key: string): Uint8Array | undefined {
    return this.slots.get(key);
  }

  async loadSlot(key: string, address: Address, slot: Uint8Array): Promise<Uint8Array> {
    const value = await this.reader.getStorage(address, slot);
    if (this.slots.size >= MAX_SLOTS) {
      this.slots.clear();
      // The reader keeps a storage-trie object per contract read; start it afresh with the slots.
      this.reader = this.open();
    }
    this.slots.set(key, value);
    return value;
  }

  /** How many values are held (tests read it). */
  get size(): { readonly accounts: number; readonly codes: number; readonly slots: number } {
    return { accounts: this.accounts.size, codes: this.codes.size, slots: this.slots.size };
  }
}

/** One undo step: the overlay entry as it was before a write (undefined = absent). */
type Undo =
  | { readonly kind: 'account'; readonly key: string; readonly prev: Account | null | undefined }
  | { readonly kind: 'code'; readonly key: string; readonly prev: Uint8Array | undefined }
  | { readonly kind: 'slot'; readonly key: string; readonly slot: string; readonly prev: Uint8Array | undefined }
  | {
      readonly kind: 'cleared';
      readonly key: string;
      readonly prevCleared: boolean;
      readonly prevSlots: Map<string, Uint8Array> | undefined;
    };

const copyOf = (a: Account): Account => new Account(a.nonce, a.balance, a.storageRoot, a.codeHash);

/** A call's view of one block's state: shared reads under a private, journaled write overlay. */
export class CallState implements StateManagerInterface {
  /** Written accounts; null = deleted. */
  private readonly accounts = new Map<string, Account | null>();
  private readonly codes = new Map<string, Uint8Array>();
  private readonly storage = new Map<string, Map<string, Uint8Array>>();
  /** Accounts whose stored slots no longer count (deleted, or storage cleared by a creation). */
  private readonly cleared = new Set<string>();
  private readonly journal: Undo[] = [];
  private readonly checkpoints: number[] = [];
  /** This call's state overrides (eth_call's stateOverrides): below its writes, above the block's state. */
  private base: OverrideBase | undefined;

  /** The value of a slot at the start of the call (EIP-2200/2929 gas): the overridden value, else the block's. */
  readonly originalStorageCache = {
    get: (address: Address, key: Uint8Array): Promise<Uint8Array> => this.baseSlot(hexKey(address.bytes), address, key),
    clear: (): void => {},
  };

  constructor(
    readonly reads: BlockReads,
    private readonly common: Common,
  ) {}

  /** Starts this call from `base` on top of the block's state (until `reset`). */
  setOverrides(base: OverrideBase): void {
    this.base = base;
  }

  /** Back to the block's state: drops every write and override of the previous call. */
  reset(): void {
    this.base = undefined;
    if (this.journal.length === 0 && this.accounts.size === 0) return;
    this.accounts.clear();
    this.codes.clear();
    this.storage.clear();
    this.cleared.clear();
    this.journal.length = 0;
    this.checkpoints.length = 0;
  }

  async getAccount(address: Address): Promise<Account | undefined> {
    const account = await this.account(hexKey(address.bytes), address);
    return account === null ? undefined : copyOf(account);
  }

  /** The current account at `key`, not copied (never hand it out). */
  private account(key: string, address: Address): Account | null | Promise<Account | null> {
    const written = this.accounts.get(key);
    if (written !== undefined) return written;
    const overridden = this.base?.account(key);
    if (overridden !== undefined) return overridden;
    const known = this.reads.knownAccount(key);
    if (known !== undefined) return known;
    return this.reads.loadAccount(key, address);
  }

  async putAccount(address: Address, account?: Account): Promise<void> {
    const key = hexKey(address.bytes);
    if (account === undefined) {
      this.deleteKey(key);
      return;
    }
    this.setAccount(key, copyOf(account));
  }

  private setAccount(key: string, value: Account | null): void {
    this.journal.push({ kind: 'account', key, prev: this.accounts.get(key) });
    this.accounts.set(key, value);
  }

  async deleteAccount(address: Address): Promise<void> {
    this.deleteKey(hexKey(address.bytes));
  }

  /** As the library's caches do on delete: the account, its code and its storage are gone. */
  private deleteKey(key: string): void {
    this.setAccount(key, null);
    if (this.codes.has(key)) {
      this.journal.push({ kind: 'code', key, prev: this.codes.get(key) });
      this.codes.delete(key);
    }
    this.clearSlots(key);
  }

  async modifyAccountFields(
    address: Address,
    fields: { nonce?: bigint; balance?: bigint; storageRoot?: Uint8Array; codeHash?: Uint8Array },
  ): Promise<void> {
    const account = (await this.getAccount(address)) ?? new Account();
    account.nonce = fields.nonce ?? account.nonce;
    account.balance = fields.balance ?? account.balance;
    account.storageRoot = fields.storageRoot ?? account.storageRoot;
    account.codeHash = fields.codeHash ?? account.codeHash;
    this.setAccount(hexKey(address.bytes), account);
  }

  async putCode(address: Address, value: Uint8Array): Promise<void> {
    const key = hexKey(address.bytes);
    this.journal.push({ kind: 'code', key, prev: this.codes.get(key) });
    this.codes.set(key, value);
    const codeHash = (this.common.customCrypto.keccak256 ?? keccak256)(value);
    await this.modifyAccountFields(address, { codeHash });
  }

  async getCode(address: Address): Promise<Uint8Array> {
    const key = hexKey(address.bytes);
    const written = this.codes.get(key);
    if (written !== undefined) return written;
    const account = await this.account(key, address);
    if (account === null || equalsBytes(account.codeHash, KECCAK256_NULL)) return EMPTY;
    const overridden = this.base?.code(key, account.codeHash);
    if (overridden !== undefined) return overridden;
    return this.reads.knownCode(key) ?? this.reads.loadCode(key, address);
  }

  async getCodeSize(address: Address): Promise<number> {
    return (await this.getCode(address)).length;
  }

  async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    if (key.length !== 32) throw new Error('Storage key must be 32 bytes long');
    const account = hexKey(address.bytes);
    const written = this.storage.get(account)?.get(hexKey(key));
    if (written !== undefined) return written;
    if (this.cleared.has(account)) return EMPTY;
    if ((await this.account(account, address)) === null) return EMPTY;
    return this.baseSlot(account, address, key);
  }

  /** The slot's value before the call: overridden, else the block's. */
  private async baseSlot(account: string, address: Address, key: Uint8Array): Promise<Uint8Array> {
    const slot = hexKey(key);
    const overridden = this.base?.slot(account, slot);
    if (overridden !== undefined) return overridden;
    const slotKey = account + slot;
    return this.reads.knownSlot(slotKey) ?? this.reads.loadSlot(slotKey, address, key);
  }

  async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    if (key.length !== 32) throw new Error('Storage key must be 32 bytes long');
    if (value.length > 32) throw new Error('Storage value cannot be longer than 32 bytes');
    const account = hexKey(address.bytes);
    if ((await this.account(account, address)) === null) throw new Error('putStorage() called on non-existing account');
    let slots = this.storage.get(account);
    if (slots === undefined) this.storage.set(account, (slots = new Map()));
    const slot = hexKey(key);
    this.journal.push({ kind: 'slot', key: account, slot, prev: slots.get(slot) });
    slots.set(slot, unpadBytes(value));
  }

  async clearStorage(address: Address): Promise<void> {
    const key = hexKey(address.bytes);
    const account = (await this.getAccount(address)) ?? new Account();
    this.clearSlots(key);
    account.storageRoot = KECCAK256_RLP;
    this.setAccount(key, account);
  }

  private clearSlots(key: string): void {
    this.journal.push({ kind: 'cleared', key, prevCleared: this.cleared.has(key), prevSlots: this.storage.get(key) });
    this.cleared.add(key);
    this.storage.delete(key);
  }

  async checkpoint(): Promise<void> {
    this.checkpoints.push(this.journal.length);
  }

  async commit(): Promise<void> {
    this.checkpoints.pop();
  }

  async revert(): Promise<void> {
    const to = this.checkpoints.pop() ?? 0;
    const { journal } = this;
    while (journal.length > to) {
      const undo = journal.pop()!;
      switch (undo.kind) {
        case 'account':
          if (undo.prev === undefined) this.accounts.delete(undo.key);
          else this.accounts.set(undo.key, undo.prev);
          break;
        case 'code':
          if (undo.prev === undefined) this.codes.delete(undo.key);
          else this.codes.set(undo.key, undo.prev);
          break;
        case 'slot': {
          const slots = this.storage.get(undo.key)!;
          if (undo.prev === undefined) slots.delete(undo.slot);
          else slots.set(undo.slot, undo.prev);
          break;
        }
        case 'cleared':
          if (!undo.prevCleared) this.cleared.delete(undo.key);
          if (undo.prevSlots !== undefined) this.storage.set(undo.key, undo.prevSlots);
          else this.storage.delete(undo.key);
          break;
      }
    }
  }

  // Not used by message calls: a call's state has no root of its own and is never copied or persisted.
  getStateRoot(): Promise<Uint8Array> {
    return Promise.reject(new Error('CallState has no state root'));
  }
  setStateRoot(): Promise<void> {
    return Promise.reject(new Error('CallState cannot move to another state root'));
  }
  hasStateRoot(): Promise<boolean> {
    return Promise.reject(new Error('CallState has no state roots'));
  }
  clearCaches(): void {}
  shallowCopy(): StateManagerInterface {
    throw new Error('CallState cannot be copied');
  }
}

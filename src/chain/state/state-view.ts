/**
 * Opening the world state at a state root: a MerkleStateManager over the chain database with per-use
 * caches (flushed once per block by the executor), and a read-only view for RPC-style queries.
 *
 * A view is meant to be kept and shared (the chain caches one per recent block): the state of a block
 * never changes, so it memoises what it has read in small LRU maps. Its state manager has no caches of
 * its own, because the library's caches record every read for a later flush and would grow without bound.
 */
import type { Common } from '@ethereumjs/common';
import { CacheType, Caches, MerkleStateManager, type MerkleStateManagerOpts } from '@ethereumjs/statemanager';
import {
  type Account,
  Address,
  createAccountFromRLP,
  EthereumJSErrorWithoutCode,
  KECCAK256_RLP,
  ValueEncoding,
  bytesToUnprefixedHex,
  equalsBytes,
  unpadBytes,
  unprefixedHexToBytes,
} from '@ethereumjs/util';
import { RLP } from '@ethereumjs/rlp';
import { hexKey } from '../db/hex-key.js';
import { Lru } from '../db/lru.js';
import type { ForkStateSource } from '../fork/fork-state.js';
import { keccak256 } from '../base/crypto.js';
import type { FlatChanges } from '../db/flat-changes.js';
import { ChangeList } from './change-list.js';
import { decodedAccount, keepAccountsDecoded } from './decoded-accounts.js';
import { FlatLookup } from './flat-lookup.js';
import { keepRead } from './kept-reads.js';
import { StateTrie, type StateTrieCaches, isMissingNode } from './state-trie.js';
import { BufferedTrieDB, type TrieNodeStore } from './trie-db.js';
import type { WrittenKeys } from './written-keys.js';

export interface OpenedState {
  readonly stateManager: ChainStateManager;
  /** Where the state manager's trie writes land until the caller persists (or drops) them. */
  readonly buffer: BufferedTrieDB;
}

/**
 * A state manager positioned at `stateRoot`. Ordered-map caches never evict, so nothing is lost before the flush.
 * `trieCaches`: the store's shared ones by default; work whose nodes must not outlive it (a trace's re-execution)
 * passes its own. `written`: where the plain keys of what is written are noted, the store's by default; null for a
 * state that is never stored, such as a simulation's or a trace's replay (undefined would take the default).
 */
export function openState(
  store: TrieNodeStore,
  common: Common,
  stateRoot: Uint8Array,
  trieCaches: StateTrieCaches = store.trieCaches,
  written: WrittenKeys | null | undefined = store.writtenKeys,
): OpenedState {
  const buffer = new BufferedTrieDB(store);
  const trie = new StateTrie(
    {
      db: buffer,
      valueEncoding: ValueEncoding.Bytes,
      useKeyHashing: true,
      common,
      root: stateRoot,
    },
    trieCaches,
  );
  const caches = new Caches({
    account: { type: CacheType.ORDERED_MAP },
    storage: { type: CacheType.ORDERED_MAP },
    code: { type: CacheType.ORDERED_MAP },
  });
  keepAccountsDecoded(caches.account);
  const stateManager = new ChainStateManager(
    { common, trie, caches },
    store.fork,
    written ?? undefined,
    new FlatLookup(store),
  );
  return { stateManager, buffer };
}

/**
 * Flushes its caches into the tries as one batch per trie (see state-trie.ts): the library writes each account
 * and each storage slot with its own put, re-hashing the path every time. Storage goes first, one batch per
 * account (whose new storage root then joins the account cache), then code and accounts as the library does.
 *
 * On a forked chain, a read that meets a missing trie node has the fork source store the proven path from the
 * upstream, then reads again (fork/fork-state.ts); missing code is fetched before the library would take it as none.
 *
 * Accounts and slots not in the caches are read from the flat state when it covers the account trie's root
 * (flat-lookup.ts), else from the tries; eth_getProof's walk (getMerkleStateProof) stays on the trie.
 */
export class ChainStateManager extends MerkleStateManager {
  constructor(
    opts: MerkleStateManagerOpts,
    private readonly fork: ForkStateSource | undefined,
    private readonly written?: WrittenKeys,
    private readonly flat?: FlatLookup,
  ) {
    super(opts);
  }

  /** See `checkpointCachesOnly`. */
  private cachesOnly = false;

  /**
   * Checkpoints of the caches alone, not of the account trie as well: for a state whose every write goes to its
   * caches (`openState` gives it one of each kind) and whose trie is written only by the flush, which runs once no
   * checkpoint is left, so the trie's own checkpoints never hold a change. The library takes one per checkpoint all
   * the same, and its commit awaits a lock, its checkpoint database and a root persistence: a trace's replay
   * checkpoints three times a transaction, ~10 KiB and ~25 promises a callTracer trace (bench/trace-engine.ts).
   * Set by trace replays (trace/replay.ts), whose states are never stored; the same steps otherwise, in its order.
   */
  checkpointCachesOnly(): void {
    if (this._caches?.account !== undefined && this._caches.storage !== undefined && this._caches.code !== undefined)
      this.cachesOnly = true;
  }

  override async checkpoint(): Promise<void> {
    if (!this.cachesOnly) return super.checkpoint();
    this._caches!.checkpoint();
    this._checkpointCount++;
  }

  override async commit(): Promise<void> {
    if (!this.cachesOnly) return super.commit();
    this._caches!.commit();
    if (--this._checkpointCount === 0) await this.flushed();
  }

  override async revert(): Promise<void> {
    if (!this.cachesOnly) return super.revert();
    this._caches!.revert();
    this._storageTries = {};
    if (--this._checkpointCount === 0) await this.flushed();
  }

  private async flushed(): Promise<void> {
    await this.flush();
    this.originalStorageCache.clear();
  }

  /**
   * Forgets every account, slot and storage trie cached, keeping this object (and whatever was built on it, such as
   * the miner's VM): what a freshly opened state at the same root would hold. Only between blocks, when everything
   * cached is in the trie already (no checkpoint open, nothing unflushed); false, with nothing done, otherwise.
   */
  emptyCaches(): boolean {
    if (this._checkpointCount !== 0 || this.changes !== undefined) return false;
    const caches = this._caches;
    if (caches !== undefined) {
      // Unflushed writes are noted in each cache's diff at height 0 (the flush empties it).
      const pending = (c: unknown) =>
        ((c as { _diffCache?: Map<string, unknown>[] } | undefined)?._diffCache?.[0]?.size ?? 0) > 0;
      if (pending(caches.account) || pending(caches.storage) || pending(caches.code)) return false;
      caches.clear();
    }
    this._storageTries = {};
    this.originalStorageCache.clear();
    return true;
  }

  /** The account trie's root as it stands, without a flush: once a block's execution finished, its post-state root. */
  trieRoot(): Uint8Array {
    return (this._trie as StateTrie).root();
  }

  /** The block's flat-state changes being listed (change-list.ts), between `beginFlatChanges` and `takeFlatChanges`. */
  private changes: ChangeList | undefined;

  /** Lists the changes from here on, made on the state at `parentRoot` (where this state manager must be). */
  beginFlatChanges(parentRoot: Uint8Array): void {
    this.changes = this.flat === undefined ? undefined : new ChangeList(parentRoot, this.flat);
  }

  /** The listed changes up to `toRoot` (what `getStateRoot` just gave), or undefined; the listing ends. */
  takeFlatChanges(toRoot: Uint8Array): FlatChanges | undefined {
    const changes = this.changes;
    this.changes = undefined;
    return changes?.take(toRoot);
  }
  /** Contract code read, by code hash (see `getCode`); bounded, as a state may serve a long run of blocks. */
  private readonly codeByHash = new Lru<string, Uint8Array>(256);

  /**
   * The account from the flat state, into the account cache as the library puts a trie read (but kept by a revert:
   * kept-reads.ts); undefined: not there.
   */
  private flatAccount(address: Address): Account | null | undefined {
    if (this.flat === undefined || this._caches?.account?.get(address) !== undefined) return undefined;
    const trie = this._trie as StateTrie;
    if (trie.batching) return undefined;
    const hashed = keccak256(address.bytes);
    const leaf = this.flat.account(trie.root(), hashed);
    if (leaf === undefined) return undefined;
    this.changes?.readAccount(trie.root(), hashed, leaf);
    const account = leaf === null ? undefined : createAccountFromRLP(leaf);
    const cache = this._caches?.account;
    if (cache !== undefined) {
      cache.put(address, account);
      keepRead(cache, bytesToUnprefixedHex(address.bytes));
    }
    return account ?? null;
  }

  /**
   * The slot (decoded, empty for zero) from the flat state when it holds the storage trie this state manager would
   * read; `cache`: into the storage cache, as the library puts a trie read. Undefined: read the trie.
   */
  private async flatSlot(address: Address, key: Uint8Array, cache: boolean): Promise<Uint8Array | undefined> {
    if (this.flat === undefined || key.length !== 32) return undefined;
    if (cache && this._caches?.storage?.get(address, key) !== undefined) return undefined;
    // Not covered: undefined before the account read, which the trie read would repeat.
    if (!this.flat.covers((this._trie as StateTrie).root())) return undefined;
    const account = await this.getAccount(address);
    if (account === undefined) return new Uint8Array(0);
    const trie = this._trie as StateTrie;
    if (trie.batching) return undefined;
    const hashed = keccak256(address.bytes);
    // The library's storage trie of the address, if it opened one: its root, not the account's, is what it reads.
    const storageTrie = this._storageTries[bytesToUnprefixedHex(hashed)] as StateTrie | undefined;
    if (storageTrie?.batching === true) return undefined;
    const value = this.flat.slot(trie.root(), hashed, storageTrie?.root() ?? account.storageRoot, key);
    if (value === undefined) return undefined;
    this.changes?.readSlot(trie.root(), hashed, key, value);
    if (cache) this._caches?.storage?.put(address, key, value ?? RLP_EMPTY);
    return RLP.decode(value ?? new Uint8Array(0)) as Uint8Array;
  }

  /**
   * The account as this state's own cache holds it, read synchronously: undefined when the cache does not have it,
   * null when it holds it as absent. (A state the miner kept after a block caches every account the block touched.)
   */
  cachedAccount(address: Address): Account | null | undefined {
    const elem = this._caches?.account?.get(address);
    if (elem === undefined) return undefined;
    const decoded = decodedAccount(elem);
    if (decoded !== undefined) return decoded;
    return elem.accountRLP === undefined ? null : createAccountFromRLP(elem.accountRLP);
  }

  /**
   * A slot read straight from the storage trie of `address` as this state holds it, past the caches: for a caller
   * that keeps its own storage (exec/flat-state.ts) and writes it with `writeSlots`, so no cached value goes stale.
   * A slot given to `putStorage` is not seen here before the flush: it waits in the storage cache.
   */
  async readSlot(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const read = async () => {
      const flat = await this.flatSlot(address, key, false);
      if (flat !== undefined) return flat;
      const account = await this.getAccount(address);
      if (account === undefined) return new Uint8Array(0);
      const value = await this._getStorageTrie(address, account).get(key);
      return value === null ? new Uint8Array(0) : (RLP.decode(value) as Uint8Array);
    };
    return this.fork === undefined ? read() : this.readingThrough(address, key, read);
  }

  /**
   * Writes `slots` (32-byte keys, unpadded values, empty = delete) into the storage trie of `address`, whose root is
   * `storageRoot`, as one batch, and returns the new root; the account itself is the caller's to put.
   */
  async writeSlots(
    address: Address,
    storageRoot: Uint8Array,
    slots: Iterable<readonly [Uint8Array, Uint8Array]>,
  ): Promise<Uint8Array> {
    this.changes?.spoil();
    const trie = this._getStorageTrie(address, { storageRoot } as Account) as StateTrie;
    // Past putStorage, so the written keys are noted here.
    await writeSlotBatch(trie, slots, (key) => this.written?.noteSlot(address.bytes, key));
    return trie.root();
  }

  // Not async: the library's promise itself (an async function returning one costs another and two microtask turns;
  // runTx puts an account ~6 times a transaction).
  override putAccount(address: Address, account: Account | undefined): Promise<void> {
    this.written?.noteAccount(address.bytes);
    this.noteCachedBefore(address);
    return super.putAccount(address, account);
  }

  override deleteAccount(address: Address): Promise<void> {
    this.noteCachedBefore(address);
    return super.deleteAccount(address);
  }

  /**
   * Before the block's first write of an account its cached element is its value at the parent root (elements never
   * change, decoded-accounts.ts): for the change list, as a flat read would say it. On a state kept from the
   * previous block (import/kept-state.ts) the accounts it touched are cached, never read from the flat state, and
   * the list would otherwise look each written one up there at its end.
   */
  private noteCachedBefore(address: Address): void {
    const changes = this.changes;
    if (changes === undefined) return;
    const elem = this._caches?.account?.get(address);
    if (elem === undefined) return;
    changes.readAccount((this._trie as StateTrie).root(), keccak256(address.bytes), elem.accountRLP ?? null);
  }

  /**
   * With a storage cache, the slot goes only there and the flush writes each account's slots as one batch. The
   * library's own put also writes the slot's storage-trie path at once (its `cache.put(...) ?? write` always takes
   * the write, the put returning nothing): every SSTORE re-hashed its path and left dead nodes in the block's buffer.
   */
  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    this.written?.noteSlot(address.bytes, key);
    const cache = this._caches?.storage;
    if (cache === undefined) return super.putStorage(address, key, value);
    // The library's checks, in its order.
    if (key.length !== 32) throw EthereumJSErrorWithoutCode('Storage key must be 32 bytes long');
    if (value.length > 32) throw EthereumJSErrorWithoutCode('Storage value cannot be longer than 32 bytes');
    if ((await this.getAccount(address)) === undefined)
      throw EthereumJSErrorWithoutCode('putStorage() called on non-existing account');
    cache.put(address, key, RLP.encode(unpadBytes(value)));
  }

  /** A storage emptied at once (a creation over an address) is not listed slot by slot. */
  override async clearStorage(address: Address): Promise<void> {
    if (
      this.changes !== undefined &&
      !equalsBytes((await this.getAccount(address))?.storageRoot ?? KECCAK256_RLP, KECCAK256_RLP)
    )
      this.changes.spoil();
    return super.clearStorage(address);
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    const decoded = decodedAccount(this._caches?.account?.get(address));
    if (decoded !== undefined) return decoded ?? undefined;
    const flat = this.flatAccount(address);
    if (flat !== undefined) return flat ?? undefined;
    if (this.fork === undefined) return super.getAccount(address);
    return this.readingThrough(address, undefined, () => super.getAccount(address));
  }

  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const flat = await this.flatSlot(address, key, true);
    if (flat !== undefined) return flat;
    if (this.fork === undefined) return super.getStorage(address, key);
    return this.readingThrough(address, key, () => super.getStorage(address, key));
  }

  override async getCode(address: Address): Promise<Uint8Array> {
    const cache = this._caches?.code;
    if (this.fork === undefined && cache !== undefined && cache.get(address) === undefined) {
      // The library's miss (its order: the account, then its code by hash into the cache), the code by hash kept
      // apart: a revert empties the code cache of what was read in the checkpoint, so a trace's replay on a kept
      // state read every contract's code from the database again. Code under a hash never changes.
      const account = await this.getAccount(address);
      if (account === undefined || !account.isContract()) return new Uint8Array(0);
      const hash = hexKey(account.codeHash);
      const known = this.codeByHash.get(hash);
      if (known !== undefined) {
        cache.put(address, known);
        return known;
      }
      const code = await super.getCode(address);
      // Not an empty answer: code missing from the database may arrive later (snap sync's healing).
      if (code.length > 0) this.codeByHash.set(hash, code);
      return code;
    }
    const fork = this.fork;
    if (fork !== undefined && this._caches?.code?.get(address) === undefined) {
      // The library takes code it does not find for empty code, and its flush would then clear the code hash.
      const account = await this.getAccount(address);
      if (account?.isContract() === true && !(await fork.hasCode(account.codeHash)))
        await fork.resolveCode(address.bytes, account.codeHash);
    }
    return super.getCode(address);
  }

  private async readingThrough<T>(address: Address, slot: Uint8Array | undefined, read: () => Promise<T>): Promise<T> {
    const fork = this.fork!;
    try {
      return await read();
    } catch (err) {
      if (!isMissingNode(err)) throw err;
    }
    await fork.resolve(address.bytes, slot);
    try {
      return await read();
    } catch (err) {
      throw isMissingNode(err) ? fork.stillMissing(address.bytes, err) : err;
    }
  }

  override async flush(): Promise<void> {
    await this.flushStorage();
    const trie = this._trie as StateTrie;
    trie.beginBatch();
    try {
      await super.flush();
    } catch (err) {
      trie.discardBatch();
      throw err;
    }
    this.changes?.accountsWritten(trie.pendingUpdates());
    await trie.commitBatch();
  }

  /** The library's storage flush (same puts and deletes, same order per account) with one trie batch per account. */
  private async flushStorage(): Promise<void> {
    const items = this._caches?.storage?.flush() ?? [];
    if (items.length === 0) return;
    const byAccount = new Map<string, [string, Uint8Array | undefined][]>();
    for (const [addressHex, keyHex, value] of items) {
      let slots = byAccount.get(addressHex);
      if (slots === undefined) byAccount.set(addressHex, (slots = []));
      slots.push([keyHex, value]);
    }
    for (const [addressHex, slots] of byAccount) {
      const address = new Address(unprefixedHexToBytes(addressHex));
      const account = await this.getAccount(address);
      if (account === undefined) continue;
      const storageTrie = this._getStorageTrie(address, account) as StateTrie;
      const values = slots.map(
        ([keyHex, value]) => [keyHex, RLP.decode(value ?? new Uint8Array(0)) as Uint8Array] as const,
      );
      await writeSlotBatch(
        storageTrie,
        values.map(([keyHex, value]) => [unprefixedHexToBytes(keyHex), value]),
      );
      this.changes?.slotsWritten(keccak256(address.bytes), values);
      // As the library's _modifyContractStorage: the trie is remembered under the plain address too.
      this._storageTries[addressHex] = storageTrie;
      account.storageRoot = storageTrie.root();
      await this.putAccount(address, account);
    }
  }
}

/**
 * Puts (a non-empty value, RLP-encoded here) or deletes (an empty one) each slot in `trie` as one batch, telling
 * `noted` each key; the batch is discarded if a write fails.
 */
async function writeSlotBatch(
  trie: StateTrie,
  slots: Iterable<readonly [Uint8Array, Uint8Array]>,
  noted?: (key: Uint8Array) => void,
): Promise<void> {
  trie.beginBatch();
  try {
    for (const [key, value] of slots) {
      noted?.(key);
      if (value.length > 0) await trie.put(key, RLP.encode(value));
      else await trie.del(key);
    }
  } catch (err) {
    trie.discardBatch();
    throw err;
  }
  await trie.commitBatch();
}

/** `address` as `state`'s own cache holds it (see ChainStateManager.cachedAccount); undefined if not cached. */
export function cachedAccount(state: OpenedState, address: Address): Account | null | undefined {
  return state.stateManager instanceof ChainStateManager ? state.stateManager.cachedAccount(address) : undefined;
}

/** A cache-less state manager for reads only (see the top of this file). */
export function openReadState(store: TrieNodeStore, common: Common, stateRoot: Uint8Array): MerkleStateManager {
  const trie = new StateTrie(
    {
      db: new BufferedTrieDB(store),
      valueEncoding: ValueEncoding.Bytes,
      useKeyHashing: true,
      common,
      root: stateRoot,
    },
    store.trieCaches,
  );
  return new ChainStateManager({ common, trie }, store.fork, undefined, new FlatLookup(store));
}

/**
 * Accounts of the block's post-state known without a trie walk, asked synchronously: undefined = not known here,
 * null = known to be absent. (The dev miner's kept state, while it is still this block's; see warm-state.ts.)
 */
export type KnownAccounts = (address: Address) => Account | null | undefined;

/** The RLP of the empty string: how the library's storage cache holds a zero slot. */
const RLP_EMPTY = Uint8Array.of(0x80);

/**
 * Read-only queries against the state of one stored block (RPC reads, the pool's accounts), memoised: a block's
 * state never changes, so a view the chain keeps per recent block can remember what it has read.
 */
import { CODEHASH_PREFIX, getMerkleStateProof, type MerkleStateManager } from '@ethereumjs/statemanager';
import {
  type Account,
  Address,
  KECCAK256_NULL,
  KECCAK256_RLP,
  bytesToBigInt,
  concatBytes,
  equalsBytes,
  bytesToUnprefixedHex,
  hexToBytes,
  setLengthLeft,
} from '@ethereumjs/util';
import { Lru } from '../db/lru.js';
import type { KnownAccounts } from './state-view.js';

interface CodeStore {
  get(key: Uint8Array): Promise<Uint8Array | undefined>;
}

/** Entries each view memoises per kind (accounts, code, storage slots). */
const VIEW_CACHE_SIZE = 2048;

export interface AccountProof {
  readonly address: Uint8Array;
  readonly balance: bigint;
  readonly nonce: bigint;
  readonly codeHash: Uint8Array;
  readonly storageHash: Uint8Array;
  readonly accountProof: Uint8Array[];
  readonly storageProof: { key: Uint8Array; value: bigint; proof: Uint8Array[] }[];
}

/** Read-only account and storage queries against the state of one stored block. */
export class StateView {
  /** Memoised reads, keyed by address hex (and slot hex): promises, so concurrent reads share one trie walk. */
  private readonly accounts = new Lru<string, Promise<Account | undefined>>(VIEW_CACHE_SIZE);
  private readonly codes = new Lru<string, Promise<Uint8Array>>(VIEW_CACHE_SIZE);
  private readonly slots = new Lru<string, Promise<Uint8Array>>(VIEW_CACHE_SIZE);

  private opened: MerkleStateManager | undefined;

  /**
   * `open` builds the state manager on first need (a new trie and state manager per head cost more than the one
   * account read most new heads get); `known` answers account reads before it is needed.
   */
  constructor(
    private readonly open: () => MerkleStateManager,
    readonly stateRoot: Uint8Array,
    private readonly known?: KnownAccounts,
  ) {}

  private get state(): MerkleStateManager {
    this.opened ??= this.open();
    return this.opened;
  }

  async getBalance(address: Uint8Array): Promise<bigint> {
    return (await this.account(address))?.balance ?? 0n;
  }

  async getNonce(address: Uint8Array): Promise<bigint> {
    return (await this.account(address))?.nonce ?? 0n;
  }

  async getCode(address: Uint8Array): Promise<Uint8Array> {
    return memo(this.codes, bytesToUnprefixedHex(address), () => this.state.getCode(new Address(address)));
  }

  /** `slot` is a 32-byte key (shorter input is left-padded); the value comes back as 32 bytes. */
  async getStorageAt(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array> {
    const key = setLengthLeft(slot, 32);
    return memo(this.slots, `${bytesToUnprefixedHex(address)}${bytesToUnprefixedHex(key)}`, async () =>
      setLengthLeft(await this.state.getStorage(new Address(address), key), 32),
    );
  }

  /** Storage trie root of the account (the empty-trie root for accounts without storage). */
  async getStorageRoot(address: Uint8Array): Promise<Uint8Array> {
    return (await this.account(address))?.storageRoot ?? KECCAK256_RLP;
  }

  /** The account's code hash (the empty code's for accounts without code). */
  async getCodeHash(address: Uint8Array): Promise<Uint8Array> {
    return (await this.account(address))?.codeHash ?? KECCAK256_NULL;
  }

  /**
   * The code stored under `hash` in the state store this view reads (any contract's the node holds, not only this
   * state's); undefined when none is. Read where @ethereumjs/statemanager writes it: 'c' + hash in the trie's database.
   */
  async getCodeByHash(hash: Uint8Array): Promise<Uint8Array | undefined> {
    if (equalsBytes(hash, KECCAK256_NULL)) return new Uint8Array(0);
    // The code table is the state manager's own (protected there); it is the trie's database.
    const store = (this.state as unknown as { _trie: { database(): CodeStore } })._trie.database();
    return (await store.get(concatBytes(CODEHASH_PREFIX, hash))) ?? undefined;
  }

  private account(address: Uint8Array): Promise<Account | undefined> {
    return memo(this.accounts, bytesToUnprefixedHex(address), () => {
      const at = new Address(address);
      const known = this.known?.(at);
      if (known !== undefined) return Promise.resolve(known ?? undefined);
      return this.state.getAccount(at);
    });
  }

  /** EIP-1186 proof against this block's state root. */
  async getProof(address: Uint8Array, slots: readonly Uint8Array[]): Promise<AccountProof> {
    // Reading first puts every path the proof walks in place (on a forked chain they may not be local yet).
    await this.account(address);
    await Promise.all(slots.map((slot) => this.getStorageAt(address, slot)));
    const proof = await getMerkleStateProof(
      this.state,
      new Address(address),
      slots.map((s) => setLengthLeft(s, 32)),
    );
    return {
      address,
      balance: BigInt(proof.balance),
      nonce: BigInt(proof.nonce),
      codeHash: hexToBytes(proof.codeHash),
      storageHash: hexToBytes(proof.storageHash),
      accountProof: proof.accountProof.map((p) => hexToBytes(p)),
      storageProof: proof.storageProof.map((s) => ({
        key: setLengthLeft(hexToBytes(s.key), 32),
        value: bytesToBigInt(hexToBytes(s.value)),
        proof: s.proof.map((p) => hexToBytes(p)),
      })),
    };
  }

  /** For callers that need the raw state manager (e.g. debug methods). Do not write through it: the view is shared. */
  get stateManager(): MerkleStateManager {
    return this.state;
  }
}

/** The cached promise for `key`, or a new one from `load`; a failed load is not kept. */
function memo<T>(cache: Lru<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  const known = cache.get(key);
  if (known !== undefined) return known;
  const loading = load();
  cache.set(key, loading);
  loading.catch(() => cache.delete(key));
  return loading;
}

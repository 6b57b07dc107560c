/**
 * Opening the world state at a state root: a MerkleStateManager over the chain database with per-use
 * caches (flushed once per block by the executor), and a read-only view for RPC-style queries.
 */
import type { Common } from '@ethereumjs/common';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { CacheType, Caches, MerkleStateManager, getMerkleStateProof } from '@ethereumjs/statemanager';
import { Address, KECCAK256_RLP, ValueEncoding, hexToBytes, setLengthLeft, bytesToBigInt } from '@ethereumjs/util';
import { BufferedTrieDB, type TrieNodeStore } from './trie-db.js';

export interface OpenedState {
  readonly stateManager: MerkleStateManager;
  /** Where the state manager's trie writes land until the caller persists (or drops) them. */
  readonly buffer: BufferedTrieDB;
}

/** A state manager positioned at `stateRoot`. Ordered-map caches never evict, so nothing is lost before the flush. */
export function openState(store: TrieNodeStore, common: Common, stateRoot: Uint8Array): OpenedState {
  const buffer = new BufferedTrieDB(store);
  const trie = new MerklePatriciaTrie({
    db: buffer,
    valueEncoding: ValueEncoding.Bytes,
    useKeyHashing: true,
    common,
    root: stateRoot,
  });
  const caches = new Caches({
    account: { type: CacheType.ORDERED_MAP },
    storage: { type: CacheType.ORDERED_MAP },
    code: { type: CacheType.ORDERED_MAP },
  });
  const stateManager = new MerkleStateManager({ common, trie, caches });
  return { stateManager, buffer };
}

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
  constructor(
    private readonly state: MerkleStateManager,
    readonly stateRoot: Uint8Array,
  ) {}

  async getBalance(address: Uint8Array): Promise<bigint> {
    return (await this.state.getAccount(new Address(address)))?.balance ?? 0n;
  }

  async getNonce(address: Uint8Array): Promise<bigint> {
    return (await this.state.getAccount(new Address(address)))?.nonce ?? 0n;
  }

  async getCode(address: Uint8Array): Promise<Uint8Array> {
    return this.state.getCode(new Address(address));
  }

  /** `slot` is a 32-byte key (shorter input is left-padded); the value comes back as 32 bytes. */
  async getStorageAt(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array> {
    const value = await this.state.getStorage(new Address(address), setLengthLeft(slot, 32));
    return setLengthLeft(value, 32);
  }

  /** Storage trie root of the account (the empty-trie root for accounts without storage). */
  async getStorageRoot(address: Uint8Array): Promise<Uint8Array> {
    return (await this.state.getAccount(new Address(address)))?.storageRoot ?? KECCAK256_RLP;
  }

  /** EIP-1186 proof against this block's state root. */
  async getProof(address: Uint8Array, slots: readonly Uint8Array[]): Promise<AccountProof> {
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

  /** For callers that need the raw state manager (e.g. debug methods). Do not write through it. */
  get stateManager(): MerkleStateManager {
    return this.state;
  }
}

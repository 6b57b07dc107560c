/**
 * Genesis state root and block for a network: the state root is computed from the allocation with
 * `@ethereumjs/mpt`, the header is built with `@ethereumjs/block` under the network's block-0 rules.
 * The header builder and the mismatch error are the engine's too (chain/genesis.ts builds the stored state).
 */
import { Block, createBlockHeader } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { Account, bytesToHex, equalsBytes, KECCAK256_NULL, KECCAK256_RLP, unpadBytes } from '@ethereumjs/util';
import { keccak256 } from '../base/crypto.js';
import { evmRulesAt } from '../rules/evmRules.js';
import type { GenesisAccount, GenesisHeaderFields, NetworkDefinition } from '../networks/types.js';

function newSecureTrie(): MerklePatriciaTrie {
  return new MerklePatriciaTrie({ useKeyHashing: true, useKeyHashingFunction: keccak256 });
}

async function storageRoot(storage: GenesisAccount['storage']): Promise<Uint8Array> {
  if (storage === undefined || storage.length === 0) return KECCAK256_RLP;
  const trie = newSecureTrie();
  for (const [slot, value] of storage) {
    const unpadded = unpadBytes(value);
    if (unpadded.length > 0) await trie.put(slot, RLP.encode(unpadded));
  }
  return trie.root();
}

/** The state account (RLP [nonce, balance, storageRoot, codeHash]) of one allocation entry. */
export async function genesisAccountState(entry: GenesisAccount): Promise<Account> {
  return new Account(
    entry.nonce ?? 0n,
    entry.balance,
    await storageRoot(entry.storage),
    entry.code !== undefined && entry.code.length > 0 ? keccak256(entry.code) : KECCAK256_NULL,
  );
}

/** State root of a genesis allocation. */
export async function computeGenesisStateRoot(alloc: readonly GenesisAccount[]): Promise<Uint8Array> {
  const trie = newSecureTrie();
  for (const entry of alloc) {
    await trie.put(entry.address, (await genesisAccountState(entry)).serialize());
  }
  return trie.root();
}

export interface GenesisBlockInfo {
  /** The genesis block (empty body), built with the network's block-0 Common. */
  readonly block: Block;
  readonly hash: Uint8Array;
  readonly stateRoot: Uint8Array;
  readonly alloc: readonly GenesisAccount[];
}

/** What a data directory holds when its genesis is not the network's (see `GenesisMismatchError.ofDatabase`). */
export interface StoredGenesisMismatch {
  readonly dataDir: string;
  readonly storedGenesis: Uint8Array;
  /** The genesis the network definition gives. */
  readonly expected: Block;
}

/**
 * A genesis that is not the one expected: an allocation or header that does not give the published root or hash,
 * or a data directory holding another chain (`stored` set; the engine then names a dev chain of the other seal mode).
 */
export class GenesisMismatchError extends Error {
  constructor(
    message: string,
    readonly stored?: StoredGenesisMismatch,
  ) {
    super(message);
    this.name = 'GenesisMismatchError';
  }

  static ofDatabase(
    dataDir: string,
    networkName: string,
    storedGenesis: Uint8Array,
    expected: Block,
  ): GenesisMismatchError {
    return new GenesisMismatchError(
      `the database in ${dataDir} belongs to a chain with genesis ${bytesToHex(storedGenesis)}, ` +
        `not ${networkName} (genesis ${bytesToHex(expected.hash())}): start it with the --network it was made ` +
        'with, or give this node another --datadir',
      { dataDir, storedGenesis, expected },
    );
  }
}

/** The genesis header fields a builder needs; the parent hash defaults to zero. */
export type GenesisHeaderInput = Omit<GenesisHeaderFields, 'parentHash'> & { readonly parentHash?: Uint8Array };

/** The genesis block (empty body) of `header` over `stateRoot`, under `common` (the network's block-0 rules). */
export function genesisBlock(header: GenesisHeaderInput, common: Common, stateRoot: Uint8Array): Block {
  const built = createBlockHeader(
    {
      parentHash: header.parentHash ?? new Uint8Array(32),
      coinbase: header.coinbase,
      stateRoot,
      difficulty: header.difficulty,
      number: 0n,
      gasLimit: header.gasLimit,
      gasUsed: 0n,
      timestamp: header.timestamp,
      extraData: header.extraData,
      mixHash: header.mixHash,
      nonce: header.nonce,
    },
    { common },
  );
  return new Block(built, [], [], undefined, { common });
}

/** Genesis block of `network` with a state root computed from the allocation. */
export async function buildGenesisBlock(network: NetworkDefinition): Promise<GenesisBlockInfo> {
  const alloc = await network.genesis.loadAlloc();
  const stateRoot = await computeGenesisStateRoot(alloc);
  const { expectedStateRoot, expectedHash } = network.genesis;
  if (expectedStateRoot !== undefined && !equalsBytes(stateRoot, expectedStateRoot)) {
    throw new GenesisMismatchError(
      `${network.name} genesis state root ${bytesToHex(stateRoot)} differs from the published ${bytesToHex(expectedStateRoot)}`,
    );
  }
  const block = genesisBlock(network.genesis.header, evmRulesAt(network, 0n), stateRoot);
  const hash = block.hash();
  if (expectedHash !== undefined && !equalsBytes(hash, expectedHash)) {
    throw new GenesisMismatchError(
      `${network.name} genesis hash ${bytesToHex(hash)} differs from the published ${bytesToHex(expectedHash)}`,
    );
  }
  return { block, hash, stateRoot, alloc };
}

const genesisCache = new Map<NetworkDefinition, Promise<GenesisBlockInfo>>();

/** `buildGenesisBlock`, memoised per network definition (the mainnet one takes a second or so). */
export function genesisBlockOf(network: NetworkDefinition): Promise<GenesisBlockInfo> {
  let pending = genesisCache.get(network);
  if (pending === undefined) {
    pending = buildGenesisBlock(network);
    pending.catch(() => genesisCache.delete(network));
    genesisCache.set(network, pending);
  }
  return pending;
}

/** The genesis block of a network and its state (built from the allocation into a state buffer). */
import { Block, createBlockHeader } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { Account, Address, KECCAK256_RLP, equalsBytes, bytesToHex } from '@ethereumjs/util';
import type { EngineNetwork } from './engine-types.js';
import { openState } from './state/state-view.js';
import type { BufferedTrieDB, TrieNodeStore } from './state/trie-db.js';

export interface GenesisBuild {
  readonly block: Block;
  /** State nodes of the allocation; empty when only the header was needed. */
  readonly stateWrites?: BufferedTrieDB;
}

export function genesisBlock(network: EngineNetwork, common: Common, stateRoot: Uint8Array): Block {
  const g = network.genesisHeader;
  const header = createBlockHeader(
    {
      parentHash: g.parentHash ?? new Uint8Array(32),
      coinbase: g.coinbase,
      stateRoot,
      difficulty: g.difficulty,
      number: 0n,
      gasLimit: g.gasLimit,
      gasUsed: 0n,
      timestamp: g.timestamp,
      extraData: g.extraData,
      mixHash: g.mixHash,
      nonce: g.nonce,
    },
    { common },
  );
  return new Block(header, [], [], undefined, { common });
}

/** Builds the allocation's state; checks it against a state root the network may declare. */
export async function buildGenesis(network: EngineNetwork, common: Common, store: TrieNodeStore): Promise<GenesisBuild> {
  const { stateManager, buffer } = openState(store, common, KECCAK256_RLP);
  for (const acct of await network.loadAlloc()) {
    const addr = new Address(acct.address);
    await stateManager.putAccount(addr, new Account(acct.nonce ?? 0n, acct.balance));
    if (acct.code !== undefined && acct.code.length > 0) await stateManager.putCode(addr, acct.code);
    for (const [key, value] of acct.storage ?? []) await stateManager.putStorage(addr, key, value);
  }
  const stateRoot = await stateManager.getStateRoot();
  const declared = network.genesisHeader.stateRoot;
  if (declared !== undefined && !equalsBytes(declared, stateRoot)) {
    throw new Error(
      `genesis allocation of ${network.name} gives state root ${bytesToHex(stateRoot)}, the network declares ${bytesToHex(declared)}`,
    );
  }
  const block = genesisBlock(network, common, stateRoot);
  const expected = network.expectedGenesisHash;
  if (expected !== undefined && !equalsBytes(expected, block.hash())) {
    throw new Error(`genesis of ${network.name} hashes to ${bytesToHex(block.hash())}, the network declares ${bytesToHex(expected)}`);
  }
  return { block, stateWrites: buffer };
}

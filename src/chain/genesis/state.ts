/**
 * The genesis block of the engine's network with its state, built from the allocation into a state buffer for the
 * first write of a new database. The header and the mismatch error are the network module's (networks/genesis.ts).
 */
import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { Account, Address, KECCAK256_RLP, equalsBytes, bytesToHex } from '@ethereumjs/util';
import type { EngineNetwork } from '../rules/engine-types.js';
import { genesisBlock, GenesisMismatchError } from './header.js';
import { openState } from '../state/state-view.js';
import type { BufferedTrieDB, TrieNodeStore } from '../state/trie-db.js';

export interface GenesisBuild {
  readonly block: Block;
  /** State nodes of the allocation; empty when only the header was needed. */
  readonly stateWrites?: BufferedTrieDB;
}

/** Builds the allocation's state; checks it against a state root the network may declare. */
export async function buildGenesis(
  network: EngineNetwork,
  common: Common,
  store: TrieNodeStore,
): Promise<GenesisBuild> {
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
    throw new GenesisMismatchError(
      `genesis allocation of ${network.name} gives state root ${bytesToHex(stateRoot)}, the network declares ${bytesToHex(declared)}`,
    );
  }
  const block = genesisBlock(network.genesisHeader, common, stateRoot);
  const expected = network.expectedGenesisHash;
  if (expected !== undefined && !equalsBytes(expected, block.hash())) {
    throw new GenesisMismatchError(
      `genesis of ${network.name} hashes to ${bytesToHex(block.hash())}, the network declares ${bytesToHex(expected)}`,
    );
  }
  return { block, stateWrites: buffer };
}

/** The genesis block `network` declares a state root for, without building its state; undefined if it declares none. */
export function declaredGenesisBlock(network: EngineNetwork, common: Common): Block | undefined {
  const stateRoot = network.genesisHeader.stateRoot;
  return stateRoot === undefined ? undefined : genesisBlock(network.genesisHeader, common, stateRoot);
}

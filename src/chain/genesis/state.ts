/**
 * The genesis block of the engine's network with its state, built from the allocation into a state buffer for the
 * first write of a new database. The header and the mismatch error are the network module's (networks/genesis.ts).
 */
import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import {
  Account,
  Address,
  KECCAK256_RLP,
  equalsBytes,
  bytesToHex,
  bytesToUnprefixedHex,
  unpadBytes,
} from '@ethereumjs/util';
import { keccak256 } from '../base/crypto.js';
import { type ChainDB, WriteBatch } from '../db/chain-db.js';
import type { GenesisAccount } from '../networks/types.js';
import type { EngineNetwork } from '../rules/engine-types.js';
import { genesisBlock, GenesisMismatchError } from './header.js';
import { openState } from '../state/state-view.js';
import { BufferedTrieDB, type TrieNodeStore } from '../state/trie-db.js';
import type { FlatChanges } from '../db/flat-changes.js';
import { buildAllocState } from './alloc-state.js';

export interface GenesisBuild {
  readonly block: Block;
  /** State nodes of the allocation; empty when only the header was needed. */
  readonly stateWrites?: BufferedTrieDB;
  /**
   * The allocation's flat-state rows, for the genesis batch (`WriteBatch.flatChanges`); absent for an allocation
   * built in parts, whose rows the table finds by walking the written trie.
   */
  readonly flatChanges?: FlatChanges;
}

/**
 * Where a large allocation's finished trie nodes go before the end (the database), so that memory stays bounded:
 * `every` accounts-plus-slots at a time, after which the buffer is emptied.
 */
export interface GenesisSpill {
  readonly every: number;
  readonly write: (nodes: BufferedTrieDB) => Promise<void>;
}

/** Allocations above this many accounts plus slots are written in parts when the caller can spill. */
export const GENESIS_SPILL_EVERY = 100_000;

/**
 * Spills a large allocation's nodes straight into `db` before the genesis batch: an interrupted build leaves only
 * content-addressed nodes that no head refers to, and the next open builds the genesis again.
 */
export function genesisSpillTo(db: ChainDB): GenesisSpill {
  return {
    every: GENESIS_SPILL_EVERY,
    write: async (nodes) => {
      const part = new WriteBatch();
      nodes.writeTo(part);
      await db.write(part);
    },
  };
}

/**
 * Builds the allocation's state; checks it against a state root the network may declare. An allocation is built at
 * once from its sorted leaves (alloc-state.ts). With `spill`, one larger than `spill.every` goes through the state
 * manager instead, inserted in the order of its hashed addresses and written in parts: each part's nodes then differ
 * from the final ones only along the trie's right edge (a few nodes per part), where random order would rewrite
 * most of the upper levels every time and leave them behind as garbage.
 */
export async function buildGenesis(
  network: EngineNetwork,
  common: Common,
  store: TrieNodeStore,
  spill?: GenesisSpill,
): Promise<GenesisBuild> {
  const alloc = await network.loadAlloc();
  let built: { stateRoot: Uint8Array; buffer: BufferedTrieDB; flatChanges?: FlatChanges };
  if (spill !== undefined && entriesOf(alloc) > spill.every) {
    built = await buildInParts(alloc, common, store, spill);
  } else {
    const buffer = new BufferedTrieDB(store);
    built = { ...buildAllocState(alloc, buffer.pending, store.writtenKeys), buffer };
  }
  const { stateRoot, buffer, flatChanges } = built;
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
  return { block, stateWrites: buffer, ...(flatChanges !== undefined ? { flatChanges } : {}) };
}

/** A large allocation through the state manager, its finished nodes spilled every `spill.every` entries. */
async function buildInParts(
  alloc: readonly GenesisAccount[],
  common: Common,
  store: TrieNodeStore,
  spill: GenesisSpill,
): Promise<{ stateRoot: Uint8Array; buffer: BufferedTrieDB }> {
  const { stateManager, buffer } = openState(store, common, KECCAK256_RLP);
  let sinceSpill = 0;
  for (const acct of byHashedAddress(alloc)) {
    const addr = new Address(acct.address);
    // The slots go in as one trie batch: the library's putStorage also writes each slot into the trie at once
    // (its cache's put returns nothing, so its `?? write` always runs), leaving ~2 dead nodes per slot behind.
    const slots = (acct.storage ?? []).map(([key, value]) => [key, unpadBytes(value)] as const);
    const storageRoot = slots.length === 0 ? KECCAK256_RLP : await stateManager.writeSlots(addr, KECCAK256_RLP, slots);
    await stateManager.putAccount(addr, new Account(acct.nonce ?? 0n, acct.balance, storageRoot));
    if (acct.code !== undefined && acct.code.length > 0) await stateManager.putCode(addr, acct.code);
    sinceSpill += 1 + (acct.storage?.length ?? 0);
    if (sinceSpill >= spill.every) {
      await stateManager.flush();
      // The account cache keeps every account it has seen; later reads find them in the trie.
      stateManager.clearCaches();
      await spill.write(buffer);
      buffer.pending.clear();
      sinceSpill = 0;
    }
  }
  return { stateRoot: await stateManager.getStateRoot(), buffer };
}

const entriesOf = (alloc: readonly GenesisAccount[]) => alloc.reduce((n, a) => n + 1 + (a.storage?.length ?? 0), 0);

function byHashedAddress(alloc: readonly GenesisAccount[]): GenesisAccount[] {
  const keyed = alloc.map((a) => ({ a, k: bytesToUnprefixedHex(keccak256(a.address)) }));
  keyed.sort((x, y) => (x.k < y.k ? -1 : x.k > y.k ? 1 : 0));
  return keyed.map((x) => x.a);
}

/** The genesis block `network` declares a state root for, without building its state; undefined if it declares none. */
export function declaredGenesisBlock(network: EngineNetwork, common: Common): Block | undefined {
  const stateRoot = network.genesisHeader.stateRoot;
  return stateRoot === undefined ? undefined : genesisBlock(network.genesisHeader, common, stateRoot);
}

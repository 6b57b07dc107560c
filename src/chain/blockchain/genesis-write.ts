/**
 * The first write of a new database: the genesis block with its state (genesis/state.ts), its flat-state rows as
 * listed from the allocation, the head and genesis records, in one batch.
 */
import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import type { Federation } from '../checkpointing/index.js';
import type { BlockStore } from '../db/block-store.js';
import { type ChainDB, WriteBatch } from '../db/chain-db.js';
import { buildGenesis, genesisSpillTo } from '../genesis/state.js';
import type { EngineNetwork } from '../rules/engine-types.js';
import type { FlatTable } from '../state/flat-table.js';
import type { TrieNodeStore } from '../state/trie-db.js';

export interface GenesisWriteParts {
  readonly network: EngineNetwork;
  readonly common: Common;
  readonly db: ChainDB;
  readonly nodes: TrieNodeStore;
  readonly store: BlockStore;
  readonly flat: FlatTable;
  readonly federation: Federation | undefined;
}

/** Builds and writes the network's genesis into an empty database; the block. */
export async function writeGenesis(parts: GenesisWriteParts): Promise<Block> {
  const { db, store, flat, federation } = parts;
  const { block, stateWrites, flatChanges } = await buildGenesis(
    parts.network,
    parts.common,
    parts.nodes,
    genesisSpillTo(db),
  );
  const batch = new WriteBatch();
  flat.openEmpty();
  stateWrites?.writeTo(batch);
  batch.flatChanges = flatChanges;
  store.stageBlock(batch, block, [], block.header.difficulty);
  store.stageCanonical(batch, block);
  store.stageHead(batch, block.hash());
  store.stageGenesisMeta(batch, block.hash());
  if (federation !== undefined) store.stageCheckpointingMeta(batch, federation.activationBlock);
  await flat.writeHead(batch, block.header.stateRoot);
  // Landed before the next read: a read while it is queued indexes each of its records (~20,000 on ETC, ~0.15 s).
  await db.flushed();
  return block;
}

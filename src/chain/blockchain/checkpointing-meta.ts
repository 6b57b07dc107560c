/** The header form a chain database was created with, against the one the node runs (ECIP-1097 or standard). */
import { bytesToBigInt } from '@ethereumjs/util';
import type { Federation } from '../checkpointing/index.js';
import type { BlockStore } from '../db/block-store.js';

/**
 * A database keeps the header form it was created with: ECIP-1097 headers (16 fields from the activation block)
 * or standard ones. Opening it the other way would mix both on one chain, which peers of either kind refuse.
 */
export async function checkCheckpointingMeta(
  store: BlockStore,
  federation: Federation | undefined,
  dataDir: string,
): Promise<void> {
  const stored = await store.getMeta('checkpointing');
  const storedActivation = stored === undefined ? undefined : bytesToBigInt(stored);
  const activation = federation?.activationBlock;
  if (storedActivation === activation) return;
  const describe = (a: bigint | undefined) =>
    a === undefined ? 'without ECIP-1097 checkpointing' : `with ECIP-1097 checkpointing from block ${a}`;
  throw new Error(
    `the database in ${dataDir} was created ${describe(storedActivation)}, but the node runs ${describe(activation)}: ` +
      'use another data directory (or the same checkpointing setting as before)',
  );
}

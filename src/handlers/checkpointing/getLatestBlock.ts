import type { CheckpointingGetLatestBlockParams, CheckpointingGetLatestBlockResult } from '../../generated/types.js';
import { invalidParams } from '../../rpc/errors.js';
import { engineOf } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex, hexFromBytes, toQuantity } from '../hex.js';

const MAX_INTERVAL = 2n ** 31n - 1n;

/**
 * Mantis's rule: the candidate is the canonical block at best − best mod interval; with a parent checkpoint, only
 * if the parent is a known block below it (else block null). Reads only the chain, so it works on any network.
 */
export async function checkpointing_getLatestBlock(
  [checkpointingInterval, parentCheckpoint]: CheckpointingGetLatestBlockParams,
  ctx: HandlerContext,
): Promise<CheckpointingGetLatestBlockResult> {
  const interval = BigInt(checkpointingInterval);
  if (interval < 1n || interval > MAX_INTERVAL)
    throw invalidParams('Expected a positive integer checkpointing interval.');
  const chain = engineOf(ctx).chain;
  const parent =
    parentCheckpoint === undefined || parentCheckpoint === null
      ? undefined
      : await chain.getHeader(bytesFromHex(parentCheckpoint));
  // A reorganisation between reading the head and the candidate can leave the height empty for a moment: read again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const best = chain.getHead().header.number;
    const candidate = best - (best % interval);
    const block = await chain.getBlock(candidate);
    if (block === undefined) continue;
    if (
      parentCheckpoint !== undefined &&
      parentCheckpoint !== null &&
      (parent === undefined || parent.number >= candidate)
    )
      return { block: null };
    return { block: { hash: hexFromBytes(block.hash()), number: toQuantity(candidate) } };
  }
  return { block: null };
}

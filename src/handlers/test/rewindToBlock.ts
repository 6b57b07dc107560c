import type { TestRewindToBlockParams, TestRewindToBlockResult } from '../../generated/types.js';
import { blockNotFound, engineOf } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { toQuantity } from '../hex.js';
import { quantityParam } from '../test-quantity.js';

/** Makes canonical block `n` the head (later blocks stay stored as a side chain) and empties the pool. */
export async function test_rewindToBlock(
  [blockNumber]: TestRewindToBlockParams,
  ctx: HandlerContext,
): Promise<TestRewindToBlockResult> {
  const engine = engineOf(ctx);
  const n = quantityParam(blockNumber, 'test_rewindToBlock', 'blockNumber');
  if (n > engine.chain.getHead().header.number) throw blockNotFound(toQuantity(n));
  await engine.chain.rewindTo(n);
  // The pool re-injects the dropped blocks' transactions on the reorg; empty it once that is done.
  await engine.poolInStep();
  engine.pool.clear();
  return true;
}

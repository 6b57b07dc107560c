import type { TestMineBlocksParams, TestMineBlocksResult } from '../../generated/types.js';
import { ErrorCode, RpcError } from '../../rpc/errors.js';
import { engineOf } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { quantityNumberParam } from '../test-quantity.js';
import { checkMineCount, requesterGone } from '../anvil/mine.js';

/** Seals `count` blocks from the pool at the test_modifyTimestamp time (+1 s per block), paying the etherbase. */
export async function test_mineBlocks(
  [count]: TestMineBlocksParams,
  ctx: HandlerContext,
): Promise<TestMineBlocksResult> {
  const engine = engineOf(ctx);
  const session = ctx.node.testSession;
  const n = quantityNumberParam(count, 'test_mineBlocks', 'count');
  checkMineCount(n, 'test_mineBlocks');
  try {
    await engine.miner.mineBlocks(n, {
      collect: false,
      timestamp: () => session.takeTimestamp(),
      cancelled: requesterGone(ctx),
    });
  } catch (err) {
    throw new RpcError(ErrorCode.ServerError, `Mining failed: ${(err as Error).message}.`);
  }
  return true;
}

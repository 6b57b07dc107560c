import type { TestModifyTimestampParams, TestModifyTimestampResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { quantityParam } from '../test-quantity.js';

/** Sets the timestamp of the next block test_mineBlocks seals. */
export function test_modifyTimestamp(
  [timestamp]: TestModifyTimestampParams,
  ctx: HandlerContext,
): TestModifyTimestampResult {
  ctx.node.testSession.setNextTimestamp(quantityParam(timestamp, 'test_modifyTimestamp', 'timestamp'));
  return true;
}

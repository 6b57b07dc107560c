import { testQuantity } from '../../chain/testing/quantity.js';
import type { TestModifyTimestampParams, TestModifyTimestampResult } from '../../generated/types.js';
import type { HandlerContext } from '../context.js';
import { testSessionOf } from './session.js';

/** Sets the timestamp of the next block test_mineBlocks seals. */
export function test_modifyTimestamp([timestamp]: TestModifyTimestampParams, ctx: HandlerContext): TestModifyTimestampResult {
  testSessionOf(ctx.node).setNextTimestamp(testQuantity(timestamp));
  return true;
}

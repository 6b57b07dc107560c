import type {
  EvmIncreaseTimeParams,
  EvmIncreaseTimeResult,
  EvmSetNextBlockTimestampParams,
  EvmSetNextBlockTimestampResult,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { invalidParams } from '../../rpc/errors.js';
import { quantityParam } from '../test-quantity.js';
import { controlsOf } from './controls.js';

/** Moves the clock of blocks to come forward; the whole offset in seconds, a JSON number as Anvil answers. */
export function evm_increaseTime([seconds]: EvmIncreaseTimeParams, ctx: HandlerContext): EvmIncreaseTimeResult {
  const s = quantityParam(seconds, 'evm_increaseTime', 'seconds');
  return Number(controlsOf(ctx, 'evm_increaseTime').clock.increase(s));
}

/** The next block's exact timestamp; one not later than the head's is refused. */
export function evm_setNextBlockTimestamp(
  [timestamp]: EvmSetNextBlockTimestampParams,
  ctx: HandlerContext,
): EvmSetNextBlockTimestampResult {
  const ts = quantityParam(timestamp, 'evm_setNextBlockTimestamp', 'timestamp');
  try {
    controlsOf(ctx, 'evm_setNextBlockTimestamp').clock.setNext(ts);
  } catch (err) {
    if (err instanceof RangeError) throw invalidParams(`invalid params for evm_setNextBlockTimestamp: ${err.message}`);
    throw err;
  }
  return null;
}

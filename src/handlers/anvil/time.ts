import type {
  AnvilRemoveBlockTimestampIntervalParams,
  AnvilRemoveBlockTimestampIntervalResult,
  AnvilSetBlockTimestampIntervalParams,
  AnvilSetBlockTimestampIntervalResult,
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

/** Every block to come `interval` seconds after the one before, instead of following the clock. */
export function anvil_setBlockTimestampInterval(
  [interval]: AnvilSetBlockTimestampIntervalParams,
  ctx: HandlerContext,
): AnvilSetBlockTimestampIntervalResult {
  const seconds = quantityParam(interval, 'anvil_setBlockTimestampInterval', 'interval');
  try {
    controlsOf(ctx, 'anvil_setBlockTimestampInterval').clock.setInterval(seconds);
  } catch (err) {
    if (err instanceof RangeError)
      throw invalidParams(`invalid params for anvil_setBlockTimestampInterval: ${err.message}`);
    throw err;
  }
  return null;
}

/** Back to the clock; whether an interval was set. */
export function anvil_removeBlockTimestampInterval(
  _params: AnvilRemoveBlockTimestampIntervalParams,
  ctx: HandlerContext,
): AnvilRemoveBlockTimestampIntervalResult {
  return controlsOf(ctx, 'anvil_removeBlockTimestampInterval').clock.removeInterval();
}

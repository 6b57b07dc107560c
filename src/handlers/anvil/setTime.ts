import type { EvmSetTimeParams, EvmSetTimeResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { quantityParam } from '../test-quantity.js';
import { controlsOf } from './controls.js';

/** The block clock reads `timestamp` now; the seconds it moved forward as a JSON number (0 going back), as Anvil. */
export function evm_setTime([timestamp]: EvmSetTimeParams, ctx: HandlerContext): EvmSetTimeResult {
  const ts = quantityParam(timestamp, 'evm_setTime', 'timestamp');
  return Number(controlsOf(ctx, 'evm_setTime').clock.resetTo(ts));
}

import type { AnvilGetIntervalMiningResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { controlsOf } from './controls.js';

/** Anvil's answer: the seconds as a JSON number (not a hex quantity), null when no timer seals blocks. */
export function anvil_getIntervalMining(_params: [], ctx: HandlerContext): AnvilGetIntervalMiningResult {
  return controlsOf(ctx, 'anvil_getIntervalMining').intervalMining ?? null;
}

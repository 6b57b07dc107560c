import type { AnvilGetIntervalMiningResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { controlsOf } from './controls.js';

/**
 * Anvil's answer: the whole seconds as a JSON number (not a hex quantity; a sub-second --block-time truncates, as
 * Anvil's), null when no timer seals blocks.
 */
export function anvil_getIntervalMining(_params: [], ctx: HandlerContext): AnvilGetIntervalMiningResult {
  const seconds = controlsOf(ctx, 'anvil_getIntervalMining').intervalMining;
  return seconds === undefined ? null : Math.floor(seconds);
}

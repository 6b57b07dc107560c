import type { AnvilGetGenesisTimeResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { controlsOf } from './controls.js';

/** Block 0's timestamp in seconds, a JSON number as Anvil answers. */
export async function anvil_getGenesisTime(_params: [], ctx: HandlerContext): Promise<AnvilGetGenesisTimeResult> {
  const genesis = await controlsOf(ctx, 'anvil_getGenesisTime').engine.chain.getBlock(0n);
  return Number(genesis!.header.timestamp);
}

import type { MinerSetEtherbaseParams, MinerSetEtherbaseResult } from '../../generated/types.js';
import { engineOf } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex } from '../hex.js';

/** The coinbase of blocks test_mineBlocks seals from now on (eth_coinbase is not affected). */
export function miner_setEtherbase([address]: MinerSetEtherbaseParams, ctx: HandlerContext): MinerSetEtherbaseResult {
  engineOf(ctx).miner.setCoinbase(bytesFromHex(address));
  return true;
}

import type {
  EthCoinbaseParams,
  EthCoinbaseResult,
  EthHashrateParams,
  EthHashrateResult,
  EthMiningParams,
  EthMiningResult,
} from '../../generated/types.js';
import { engineOf } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { hexFromBytes, toQuantity } from '../hex.js';
import { minerCall } from './miner-of.js';

/** True while the CPU miner runs or an external miner used the work API within the last 30 s. */
export function eth_mining(_params: EthMiningParams, ctx: HandlerContext): Promise<EthMiningResult> {
  return minerCall(ctx, (miner) => miner.isMining());
}

/** Hashes per second: the CPU miner's measured rate plus recent eth_submitHashrate reports. */
export function eth_hashrate(_params: EthHashrateParams, ctx: HandlerContext): Promise<EthHashrateResult> {
  return minerCall(ctx, (miner) => toQuantity(miner.hashrate()));
}

/** The address credited with the rewards of blocks this node seals. */
export function eth_coinbase(_params: EthCoinbaseParams, ctx: HandlerContext): EthCoinbaseResult {
  return hexFromBytes(engineOf(ctx).miner.coinbase);
}

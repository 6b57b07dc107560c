import type {
  MinerGetStatusParams,
  MinerGetStatusResult,
  MinerStartParams,
  MinerStartResult,
  MinerStopParams,
  MinerStopResult,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { hexFromBytes, toQuantity } from '../hex.js';
import { minerCall } from './miner-of.js';

/** Starts the CPU miner (on dev: the seal-when-pending policy). Idempotent. */
export function miner_start(_params: MinerStartParams, ctx: HandlerContext): Promise<MinerStartResult> {
  return minerCall(ctx, (miner) => miner.start());
}

/** Stops the CPU miner once the block in progress is finished or abandoned. Idempotent. */
export function miner_stop(_params: MinerStopParams, ctx: HandlerContext): Promise<MinerStopResult> {
  return minerCall(ctx, (miner) => miner.stop());
}

export function miner_getStatus(_params: MinerGetStatusParams, ctx: HandlerContext): Promise<MinerGetStatusResult> {
  return minerCall(ctx, (miner) => ({
    isMining: miner.isMining(),
    coinbase: hexFromBytes(miner.coinbase),
    hashRate: toQuantity(miner.hashrate()),
    blocksMinedCount: toQuantity(miner.blocksMined),
  }));
}

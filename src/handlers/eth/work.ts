/** The external-miner API: work packages out, seals and hash-rate reports in. */
import type {
  EthGetWorkParams,
  EthGetWorkResult,
  EthSubmitHashrateParams,
  EthSubmitHashrateResult,
  EthSubmitWorkParams,
  EthSubmitWorkResult,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex, fromQuantity, hexFromBytes } from '../hex.js';
import { minerCall } from './miner-of.js';

/** [powHash, seedHash, boundary] of the block this node would mine next on its head. */
export function eth_getWork(_params: EthGetWorkParams, ctx: HandlerContext): Promise<EthGetWorkResult> {
  return minerCall(ctx, async (miner) => {
    const work = await miner.getWork();
    return [hexFromBytes(work.powHash), hexFromBytes(work.seedHash), hexFromBytes(work.boundary)];
  });
}

/** True when the seal solves a package handed out on the current head and the block became the head. */
export function eth_submitWork(
  [nonce, powHash, mixDigest]: EthSubmitWorkParams,
  ctx: HandlerContext,
): Promise<EthSubmitWorkResult> {
  return minerCall(ctx, (miner) =>
    miner.submitWork(bytesFromHex(nonce), bytesFromHex(powHash), bytesFromHex(mixDigest)),
  );
}

/** Records an external miner's rate (a quantity or a 32-byte big-endian number), keyed by its id. */
export function eth_submitHashrate(
  [hashRate, minerId]: EthSubmitHashrateParams,
  ctx: HandlerContext,
): Promise<EthSubmitHashrateResult> {
  return minerCall(ctx, (miner) => miner.submitHashrate(fromQuantity(hashRate), bytesFromHex(minerId)));
}

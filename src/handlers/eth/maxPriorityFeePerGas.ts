import type { EthMaxPriorityFeePerGasParams, EthMaxPriorityFeePerGasResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { engineOf } from '../block-ref.js';
import { toQuantity } from '../hex.js';
import { suggestGasPrice } from './gasPrice.js';

/**
 * core-geth suggests a tip from the recent blocks' effective tips, and on a chain without a base fee a tip is the
 * whole gas price, so its eth_maxPriorityFeePerGas equals its eth_gasPrice. This node answers the same way: the
 * eth_gasPrice suggestion.
 */
export async function eth_maxPriorityFeePerGas(
  _params: EthMaxPriorityFeePerGasParams,
  ctx: HandlerContext,
): Promise<EthMaxPriorityFeePerGasResult> {
  return toQuantity(await suggestGasPrice(engineOf(ctx)));
}

import type { EthGetBalanceParams, EthGetBalanceResult } from '../../generated/types.js';
import { engineOf, stateAt } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex, toQuantity } from '../hex.js';

/** Balance in wei after `block`; an unknown account reads 0x0, an unknown block is -32001. */
export async function eth_getBalance(
  [address, block]: EthGetBalanceParams,
  ctx: HandlerContext,
): Promise<EthGetBalanceResult> {
  const state = await stateAt(engineOf(ctx), block);
  return toQuantity(await state.getBalance(bytesFromHex(address)));
}

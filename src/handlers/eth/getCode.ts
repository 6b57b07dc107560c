import type { EthGetCodeParams, EthGetCodeResult } from '../../generated/types.js';
import { engineOf, stateAt } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex, hexFromBytes } from '../hex.js';

/** Runtime code after `block` (`0x` for accounts without code). */
export async function eth_getCode([address, block]: EthGetCodeParams, ctx: HandlerContext): Promise<EthGetCodeResult> {
  const state = await stateAt(engineOf(ctx), block);
  return hexFromBytes(await state.getCode(bytesFromHex(address)));
}

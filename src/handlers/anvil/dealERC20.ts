/**
 * anvil_dealERC20, found as Anvil finds it: the token's storage slots that balanceOf(holder) reads (by
 * eth_createAccessList) are tried one by one in an eth_call state override, and the first that makes balanceOf
 * answer the balance is written in place (anvil_setStorageAt). No slot that does it: -32000, nothing written.
 */
import type { AnvilDealERC20Params, AnvilDealERC20Result } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { ErrorCode, RpcError } from '../../rpc/errors.js';
import { eth_call } from '../eth/call.js';
import { eth_createAccessList } from '../eth/createAccessList.js';
import { boundedParam, controlsOf } from './controls.js';
import { anvil_setStorageAt } from './state.js';

/** balanceOf(address)'s selector. */
const BALANCE_OF = '0x70a08231';

const word = (n: bigint): `0x${string}` => `0x${n.toString(16).padStart(64, '0')}`;

export async function anvil_dealERC20(
  [holder, token, balance]: AnvilDealERC20Params,
  ctx: HandlerContext,
): Promise<AnvilDealERC20Result> {
  const amount = boundedParam(balance, 'anvil_dealERC20', 'balance', 256);
  controlsOf(ctx, 'anvil_dealERC20');
  const call = { to: token, data: `${BALANCE_OF}${holder.slice(2).toLowerCase().padStart(64, '0')}` as const };
  const { accessList } = await eth_createAccessList([call, 'latest'], ctx);
  const slots = accessList
    .filter((entry) => entry.address.toLowerCase() === token.toLowerCase())
    .flatMap((entry) => entry.storageKeys);
  const value = word(amount);
  for (const slot of slots) {
    const answered = await eth_call([call, 'latest', { [token]: { stateDiff: { [slot]: value } } }], ctx).catch(
      () => undefined,
    );
    // The answer is the balance as one ABI word; a longer or shorter answer is no balanceOf.
    if (answered === undefined || answered.length !== 66 || BigInt(answered) !== amount) continue;
    await anvil_setStorageAt([token, slot, value], ctx);
    return null;
  }
  throw new RpcError(ErrorCode.ServerError, 'Unable to set ERC20 balance, no slot found');
}

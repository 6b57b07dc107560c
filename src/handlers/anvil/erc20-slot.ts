/**
 * The storage write behind anvil_dealERC20 and anvil_setERC20Allowance, found as Anvil finds it: the token's slots
 * that a view call (balanceOf, allowance) reads, by eth_createAccessList, are tried one by one in an eth_call state
 * override, and the first that makes the call answer the value is written in place (anvil_setStorageAt). None does:
 * -32000 "Unable to set ERC20 <what>, no slot found", and nothing is written.
 */
import type { Address } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { ErrorCode, RpcError } from '../../rpc/errors.js';
import { eth_call } from '../eth/call.js';
import { eth_createAccessList } from '../eth/createAccessList.js';
import { anvil_setStorageAt } from './state.js';

/** One ABI word: a 32-byte value as 64 hex digits. */
export const abiWord = (n: bigint | string): string =>
  (typeof n === 'bigint' ? n.toString(16) : n.slice(2).toLowerCase()).padStart(64, '0');

export async function writeTokenWord(
  ctx: HandlerContext,
  token: Address,
  data: `0x${string}`,
  value: bigint,
  what: 'balance' | 'allowance',
): Promise<void> {
  const call = { to: token, data };
  const { accessList } = await eth_createAccessList([call, 'latest'], ctx);
  const slots = accessList
    .filter((entry) => entry.address.toLowerCase() === token.toLowerCase())
    .flatMap((entry) => entry.storageKeys);
  const word = `0x${abiWord(value)}` as const;
  for (const slot of slots) {
    const override = { [token]: { stateDiff: { [slot]: word } } };
    const answered = await eth_call([call, 'latest', override], ctx).catch(() => undefined);
    // The answer is the value as one ABI word; a longer or shorter answer is not the view asked for.
    if (answered === undefined || answered.length !== 66 || BigInt(answered) !== value) continue;
    await anvil_setStorageAt([token, slot, word], ctx);
    return;
  }
  throw new RpcError(ErrorCode.ServerError, `Unable to set ERC20 ${what}, no slot found`);
}

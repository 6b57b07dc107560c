/** anvil_setERC20Allowance: an owner's allowance for a spender, in the slot allowance() reads (erc20-slot.ts). */
import type { AnvilSetERC20AllowanceParams, AnvilSetERC20AllowanceResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { boundedParam, controlsOf } from './controls.js';
import { abiWord, writeTokenWord } from './erc20-slot.js';

/** allowance(address,address)'s selector. */
const ALLOWANCE = '0xdd62ed3e';

export async function anvil_setERC20Allowance(
  [owner, spender, token, amount]: AnvilSetERC20AllowanceParams,
  ctx: HandlerContext,
): Promise<AnvilSetERC20AllowanceResult> {
  const value = boundedParam(amount, 'anvil_setERC20Allowance', 'amount', 256);
  controlsOf(ctx, 'anvil_setERC20Allowance');
  await writeTokenWord(ctx, token, `${ALLOWANCE}${abiWord(owner)}${abiWord(spender)}`, value, 'allowance');
  return null;
}

/** anvil_dealERC20: a holder's token balance, written in the slot balanceOf(holder) reads (erc20-slot.ts). */
import type { AnvilDealERC20Params, AnvilDealERC20Result } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { boundedParam, controlsOf } from './controls.js';
import { abiWord, writeTokenWord } from './erc20-slot.js';

/** balanceOf(address)'s selector. */
const BALANCE_OF = '0x70a08231';

export async function anvil_dealERC20(
  [holder, token, balance]: AnvilDealERC20Params,
  ctx: HandlerContext,
): Promise<AnvilDealERC20Result> {
  const amount = boundedParam(balance, 'anvil_dealERC20', 'balance', 256);
  controlsOf(ctx, 'anvil_dealERC20');
  await writeTokenWord(ctx, token, `${BALANCE_OF}${abiWord(holder)}`, amount, 'balance');
  return null;
}

/** anvil_addBalance: anvil_setBalance's in-place edit, adding to the balance the head's state holds. */
import type { AnvilAddBalanceParams, AnvilAddBalanceResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { invalidParams } from '../../rpc/errors.js';
import { bytesFromHex } from '../hex.js';
import { boundedParam, controlsOf } from './controls.js';

export async function anvil_addBalance(
  [address, amount]: AnvilAddBalanceParams,
  ctx: HandlerContext,
): Promise<AnvilAddBalanceResult> {
  const wei = boundedParam(amount, 'anvil_addBalance', 'amount', 256);
  const controls = controlsOf(ctx, 'anvil_addBalance');
  try {
    await controls.edit([{ kind: 'addBalance', address: bytesFromHex(address), amount: wei }]);
  } catch (err) {
    if (err instanceof RangeError) throw invalidParams(`invalid params for anvil_addBalance: ${err.message}`);
    throw err;
  }
  return null;
}

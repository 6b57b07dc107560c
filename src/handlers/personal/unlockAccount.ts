import type { PersonalUnlockAccountParams, PersonalUnlockAccountResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex } from '../hex.js';
import { accountCall, accountsOf } from './accounts.js';

/** Duration: a quantity or a plain integer of seconds; null or absent = the default 300 s; 0 = until locked. */
export async function personal_unlockAccount(
  [address, passphrase, duration]: PersonalUnlockAccountParams,
  ctx: HandlerContext,
): Promise<PersonalUnlockAccountResult> {
  const accounts = accountsOf(ctx);
  const seconds =
    duration === null || duration === undefined
      ? undefined
      : Number(typeof duration === 'string' ? BigInt(duration) : duration);
  return accountCall(() => accounts.unlock(bytesFromHex(address), passphrase, seconds));
}

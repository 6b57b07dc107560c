import type { PersonalLockAccountParams, PersonalLockAccountResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex } from '../hex.js';
import { accountsOf } from './accounts.js';

/** true when the node holds the account (it is locked afterwards), false for an unknown address. */
export function personal_lockAccount(
  [address]: PersonalLockAccountParams,
  ctx: HandlerContext,
): Promise<PersonalLockAccountResult> {
  return accountsOf(ctx).lock(bytesFromHex(address));
}

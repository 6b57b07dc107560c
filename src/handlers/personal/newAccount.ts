import type { PersonalNewAccountParams, PersonalNewAccountResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { hexFromBytes } from '../hex.js';
import { accountCall, accountsOf } from './accounts.js';

/** Creates a key, stores it in the keystore encrypted under the passphrase, returns its address. */
export async function personal_newAccount(
  [passphrase]: PersonalNewAccountParams,
  ctx: HandlerContext,
): Promise<PersonalNewAccountResult> {
  const accounts = accountsOf(ctx);
  return hexFromBytes(await accountCall(() => accounts.newAccount(passphrase)));
}

import type { PersonalListAccountsParams, PersonalListAccountsResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { hexFromBytes } from '../hex.js';
import { accountsOf } from './accounts.js';

/** Node-held accounts first, then keystore accounts in creation order. */
export async function personal_listAccounts(
  _params: PersonalListAccountsParams,
  ctx: HandlerContext,
): Promise<PersonalListAccountsResult> {
  return (await accountsOf(ctx).list()).map(hexFromBytes);
}

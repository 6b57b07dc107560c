import type { PersonalHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { personal_ecRecover } from './ecRecover.js';
import { personal_importRawKey } from './importRawKey.js';
import { personal_listAccounts } from './listAccounts.js';
import { personal_lockAccount } from './lockAccount.js';
import { personal_newAccount } from './newAccount.js';
import { personal_sendTransaction, personal_signAndSendTransaction } from './sendTransaction.js';
import { personal_sign } from './sign.js';
import { personal_unlockAccount } from './unlockAccount.js';

/**
 * The personal_* methods. Bound through a variable (not an object literal) so this
 * compiles both while the methods are still `x-unavailable` (the interface is empty) and after their
 * markers are removed and codegen adds them (then `tsc` checks each signature here).
 */
const implemented = {
  personal_newAccount,
  personal_importRawKey,
  personal_listAccounts,
  personal_unlockAccount,
  personal_lockAccount,
  personal_sign,
  personal_ecRecover,
  personal_sendTransaction,
  personal_signAndSendTransaction,
};

export const personalHandlers: PersonalHandlers<HandlerContext> = implemented;

import type { PersonalSendTransactionParams, PersonalSendTransactionResult } from '../../generated/types.js';
import { engineOf } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { signAndSubmit } from '../eth/transaction-request.js';
import { bytesFromHex } from '../hex.js';
import { accountCall, accountsOf } from './accounts.js';

/**
 * Signs with the key decrypted by `passphrase` for this call only (no unlock needed, none left behind) and
 * pools the transaction. personal_signAndSendTransaction is the same method under another name.
 */
export async function personal_sendTransaction(
  [request, passphrase]: PersonalSendTransactionParams,
  ctx: HandlerContext,
): Promise<PersonalSendTransactionResult> {
  const engine = engineOf(ctx);
  const accounts = accountsOf(ctx);
  return accountCall(() =>
    accounts.withPassphrase(bytesFromHex(request.from), passphrase, (signer) =>
      signAndSubmit(engine, signer, request, ctx, 'personal_sendTransaction'),
    ),
  );
}

export const personal_signAndSendTransaction = personal_sendTransaction;

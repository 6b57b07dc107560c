import type { EthSendTransactionParams, EthSendTransactionResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex } from '../hex.js';
import { engineOf } from '../block-ref.js';
import { accountCall, accountsOf } from '../personal/accounts.js';
import { impersonatingSigner } from '../anvil/impersonation.js';
import { signAndSubmit } from './transaction-request.js';

/** Signs with an unlocked (or node-held) account; -32000 "account is locked or unknown" otherwise. */
export async function eth_sendTransaction(
  [request]: EthSendTransactionParams,
  ctx: HandlerContext,
): Promise<EthSendTransactionResult> {
  const engine = engineOf(ctx);
  const accounts = accountsOf(ctx);
  const from = bytesFromHex(request.from);
  // The dev chain's anvil_impersonateAccount: sent without a key (handlers/anvil/impersonation.ts).
  const signer =
    impersonatingSigner(ctx, from, () => accounts.isUnlocked(from)) ??
    (await accountCall(() => accounts.signerFor(from)));
  return signAndSubmit(engine, signer, request, ctx, 'eth_sendTransaction');
}

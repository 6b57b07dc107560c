import type { EthSendTransactionParams, EthSendTransactionResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex } from '../hex.js';
import { engineOf } from '../block-ref.js';
import { accountCall, accountsOf } from '../personal/accounts.js';
import { signAndSubmit } from './transaction-request.js';

/** Signs with an unlocked (or node-held) account; -32000 "account is locked or unknown" otherwise. */
export async function eth_sendTransaction(
  [request]: EthSendTransactionParams,
  ctx: HandlerContext,
): Promise<EthSendTransactionResult> {
  const engine = engineOf(ctx);
  const accounts = accountsOf(ctx);
  const signer = await accountCall(() => accounts.signerFor(bytesFromHex(request.from)));
  return signAndSubmit(engine, signer, request, ctx, 'eth_sendTransaction');
}

/**
 * eth_sendUnsignedTransaction, Anvil's send as any account: no key and no anvil_impersonateAccount needed. The
 * request is filled and pooled as eth_sendTransaction's, signed with impersonation's placeholder signature.
 */
import type { EthSendUnsignedTransactionParams, EthSendUnsignedTransactionResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { engineOf } from '../block-ref.js';
import { signAndSubmit } from '../eth/transaction-request.js';
import { bytesFromHex } from '../hex.js';
import { controlsOf } from './controls.js';
import { placeholderSigner } from './impersonation.js';

export function eth_sendUnsignedTransaction(
  [request]: EthSendUnsignedTransactionParams,
  ctx: HandlerContext,
): Promise<EthSendUnsignedTransactionResult> {
  const { impersonation } = controlsOf(ctx, 'eth_sendUnsignedTransaction');
  const signer = placeholderSigner(impersonation, bytesFromHex(request.from));
  return signAndSubmit(engineOf(ctx), signer, request, ctx, 'eth_sendUnsignedTransaction');
}

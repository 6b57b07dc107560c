import type { EthGetTransactionCountParams, EthGetTransactionCountResult } from '../../generated/types.js';
import { engineOf, isPending, pendingNonce, stateAt } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex, toQuantity } from '../hex.js';

/**
 * The account nonce after `block`. With `pending`, the nonce a new transaction should use: the head's
 * nonce advanced past the sender's executable pool transactions (what wallets ask for before signing).
 */
export async function eth_getTransactionCount(
  [address, block]: EthGetTransactionCountParams,
  ctx: HandlerContext,
): Promise<EthGetTransactionCountResult> {
  const engine = engineOf(ctx);
  const nonce = await (await stateAt(engine, block)).getNonce(bytesFromHex(address));
  if (!isPending(block)) return toQuantity(nonce);
  const pooled = pendingNonce(engine, address);
  return toQuantity(pooled !== undefined && pooled > nonce ? pooled : nonce);
}

import type { EthPendingTransactionsParams, EthPendingTransactionsResult } from '../../generated/types.js';
import { engineOf } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { formatTransaction } from '../format/index.js';

/** The pool's executable transactions, sender by sender in nonce order, with null block fields. */
export function eth_pendingTransactions(
  _params: EthPendingTransactionsParams,
  ctx: HandlerContext,
): EthPendingTransactionsResult {
  return engineOf(ctx)
    .pool.pending()
    .map((pooled) => formatTransaction(pooled.tx, pooled.sender.bytes));
}

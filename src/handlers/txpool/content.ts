import type {
  TxpoolContentFromParams,
  TxpoolContentFromResult,
  TxpoolContentParams,
  TxpoolContentResult,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { formatTransaction } from '../format/index.js';
import type { PooledTx } from '../../chain/index.js';
import { bySenderAndNonce, poolOf } from './pool-view.js';

const render = (pooled: PooledTx) => formatTransaction(pooled.tx, pooled.sender.bytes);

/** Every pooled transaction as a Transaction object (null block fields), by sender and nonce. */
export function txpool_content(_params: TxpoolContentParams, ctx: HandlerContext): TxpoolContentResult {
  const { pending, queued } = poolOf(ctx);
  return { pending: bySenderAndNonce(pending, render), queued: bySenderAndNonce(queued, render) };
}

/** One sender's pooled transactions, by nonce; both maps empty when it has none. */
export function txpool_contentFrom([address]: TxpoolContentFromParams, ctx: HandlerContext): TxpoolContentFromResult {
  const { pending, queued } = poolOf(ctx);
  const wanted = address.toLowerCase();
  const of = (txs: readonly PooledTx[]) =>
    Object.values(
      bySenderAndNonce(
        txs.filter((t) => t.senderHex === wanted),
        render,
      ),
    )[0] ?? {};
  return { pending: of(pending), queued: of(queued) };
}

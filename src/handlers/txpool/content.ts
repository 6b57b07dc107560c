import type {
  TxpoolContentFromParams,
  TxpoolContentFromResult,
  TxpoolContentParams,
  TxpoolContentResult,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { formatTransaction } from '../format/index.js';
import type { PooledTx, TxPool } from '../../chain/index.js';
import { engineOf } from '../block-ref.js';
import { bySenderAndNonce, poolOf } from './pool-view.js';

/** A Transaction object (null block fields), with `waiting` when the last block built on the head left it out. */
const renderer = (pool: TxPool) => (pooled: PooledTx) => {
  const json = formatTransaction(pooled.tx, pooled.sender.bytes);
  const waiting = pool.waitingReason(pooled.hashHex);
  return waiting === undefined ? json : { ...json, waiting };
};

/** Every pooled transaction as a Transaction object (null block fields), by sender and nonce. */
export function txpool_content(_params: TxpoolContentParams, ctx: HandlerContext): TxpoolContentResult {
  const { pending, queued } = poolOf(ctx);
  const render = renderer(engineOf(ctx).pool);
  return { pending: bySenderAndNonce(pending, render), queued: bySenderAndNonce(queued, render) };
}

/** One sender's pooled transactions, by nonce; both maps empty when it has none. */
export function txpool_contentFrom([address]: TxpoolContentFromParams, ctx: HandlerContext): TxpoolContentFromResult {
  const { pending, queued } = poolOf(ctx);
  const render = renderer(engineOf(ctx).pool);
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

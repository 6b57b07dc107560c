import type {
  TxpoolInspectParams,
  TxpoolInspectResult,
  TxpoolStatusParams,
  TxpoolStatusResult,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { engineOf } from '../block-ref.js';
import { toQuantity } from '../hex.js';
import type { PooledTx } from '../../chain/index.js';
import { bySenderAndNonce, poolOf, summary } from './pool-view.js';

/** The pool as one line of text per transaction (recipient, value, gas and price), by sender and nonce. */
export function txpool_inspect(_params: TxpoolInspectParams, ctx: HandlerContext): TxpoolInspectResult {
  const { pending, queued } = poolOf(ctx);
  const pool = engineOf(ctx).pool;
  // geth's line, and where the last block built on the head left the transaction out, why it waits.
  const line = (pooled: PooledTx) => {
    const waiting = pool.waitingReason(pooled.hashHex);
    return waiting === undefined ? summary(pooled) : `${summary(pooled)}; waiting: ${waiting}`;
  };
  return { pending: bySenderAndNonce(pending, line), queued: bySenderAndNonce(queued, line) };
}

/** How many transactions are executable (pending) and how many wait behind a nonce gap (queued). */
export function txpool_status(_params: TxpoolStatusParams, ctx: HandlerContext): TxpoolStatusResult {
  const pool = engineOf(ctx).pool;
  return { pending: toQuantity(pool.pendingCount), queued: toQuantity(pool.queuedCount) };
}

import type {
  DroppedTransaction,
  SvcGetDroppedTransactionParams,
  SvcGetDroppedTransactionResult,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { engineOf } from '../block-ref.js';
import { toQuantity } from '../hex.js';

/** Why the pool let `hash` go unmined, from its record of the last 1,024 drops; null when it is not there. */
export function svc_getDroppedTransaction(
  [hash]: SvcGetDroppedTransactionParams,
  ctx: HandlerContext,
): SvcGetDroppedTransactionResult {
  const record = engineOf(ctx).pool.droppedRecord(hash);
  if (record === undefined) return null;
  return {
    hash: record.hash as DroppedTransaction['hash'],
    from: record.sender as DroppedTransaction['from'],
    nonce: toQuantity(record.nonce),
    reason: record.reason as DroppedTransaction['reason'],
    detail: record.detail,
    droppedAt: toQuantity(BigInt(Math.floor(record.droppedAt / 1000))),
  };
}

import type { AnvilRemovePoolTransactionsParams, AnvilRemovePoolTransactionsResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { controlsOf } from './controls.js';

/** Every pooled transaction of `address`, pending or queued, out of the pool; none pooled is no error (Anvil's). */
export function anvil_removePoolTransactions(
  [address]: AnvilRemovePoolTransactionsParams,
  ctx: HandlerContext,
): AnvilRemovePoolTransactionsResult {
  const { pool } = controlsOf(ctx, 'anvil_removePoolTransactions').engine;
  const sender = address.toLowerCase();
  // Highest nonce first: taking the lowest first would demote the rest to queued on the way.
  const own = pool.all().filter((p) => p.senderHex === sender);
  for (const p of own.reverse()) pool.remove(p.hash, 'removed', 'removed: anvil_removePoolTransactions took it out');
  return null;
}

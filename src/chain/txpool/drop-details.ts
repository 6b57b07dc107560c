/** The reason a transaction left the pool, in words with its figures: the node's log line and svc_getDroppedTransaction. */
import type { PooledTx } from './pooled-tx.js';

export function evictedDetail(
  victim: PooledTx,
  newcomer: { hashHex: string; gasPrice: bigint },
  maxSize: number,
): string {
  return (
    `evicted: the pool was full (${maxSize} transactions) and ${newcomer.hashHex}, paying ${newcomer.gasPrice} wei ` +
    `a gas unit against its ${victim.gasPrice}, took its place`
  );
}

/** `why`: what it waited for (the sender's short balance, or the nonce before it). */
export function expiredDetail(lifetimeMs: number, why: string): string {
  const lifetime = lifetimeMs % 1000 === 0 ? `${lifetimeMs / 1000} s` : `${lifetimeMs} ms`;
  return `expired: queued longer than the pool's lifetime of ${lifetime} (${why})`;
}

export function staleDetail(tx: PooledTx, accountNonce: bigint): string {
  return `stale: the sender's nonce at the head is ${accountNonce}, so another transaction with nonce ${tx.nonce} was mined`;
}

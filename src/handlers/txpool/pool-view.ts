/**
 * The pool as geth's txpool_* methods show it: `pending` = executable now (nonces continuous from the sender's
 * account nonce), `queued` = waiting behind a nonce gap. Senders are keyed by their EIP-55 checksummed address and
 * transactions by their nonce in decimal, as geth keys them.
 */
import { toChecksumAddress } from '@ethereumjs/util';
import type { PooledTx } from '../../chain/index.js';
import type { HandlerContext } from '../../rpc/context.js';
import { engineOf } from '../block-ref.js';

export type BySenderAndNonce<T> = Record<string, Record<string, T>>;

export interface PoolSplit {
  readonly pending: readonly PooledTx[];
  readonly queued: readonly PooledTx[];
}

export function poolOf(ctx: HandlerContext): PoolSplit {
  const pool = engineOf(ctx).pool;
  return { pending: pool.pending(), queued: pool.queued() };
}

/** Groups `txs` by checksummed sender, then by decimal nonce, rendering each with `render`. */
export function bySenderAndNonce<T>(txs: readonly PooledTx[], render: (tx: PooledTx) => T): BySenderAndNonce<T> {
  const out: BySenderAndNonce<T> = {};
  for (const pooled of txs) {
    const sender = toChecksumAddress(pooled.senderHex);
    const entries = out[sender] ?? {};
    entries[pooled.nonce.toString()] = render(pooled);
    out[sender] = entries;
  }
  return out;
}

/** geth's one-line summary: `<to>: <value> wei + <gas> gas × <gasPrice> wei` (`contract creation` without `to`). */
export function summary(pooled: PooledTx): string {
  const { tx } = pooled;
  const to = tx.to === undefined ? 'contract creation' : toChecksumAddress(tx.to.toString());
  return `${to}: ${tx.value} wei + ${pooled.gasLimit} gas × ${pooled.gasPrice} wei`;
}

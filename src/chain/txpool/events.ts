/** What the pool tells its listeners (filters, subscriptions, the miner, peers) as transactions come and go. */
import type { PoolTxStatus, PooledTx } from './pooled-tx.js';

/** Why a transaction left the pool. */
export type TxDropReason =
  /** Included in a canonical block. */
  | 'mined'
  /** Replaced by a same-sender same-nonce transaction with a higher gas price. */
  | 'replaced'
  /** Pushed out by a better-paying transaction while the pool was full. */
  | 'evicted'
  /** Queued longer than `queuedLifetimeMs`. */
  | 'expired'
  /** Its nonce is below the sender's account nonce (another transaction with that nonce was mined). */
  | 'stale'
  /** Taken out with `remove` (e.g. the miner found it cannot execute). */
  | 'removed'
  /** `clear()` emptied the pool. */
  | 'cleared';

export interface TxAddedEvent {
  readonly tx: PooledTx;
  readonly status: PoolTxStatus;
  /** The transaction it replaced, if any (also reported as `tx:dropped` with reason `replaced`). */
  readonly replaced?: PooledTx;
}

export interface TxDroppedEvent {
  readonly tx: PooledTx;
  readonly reason: TxDropReason;
  /** The reason in words, with its figures (the node logs it for `expired` and `evicted`). */
  readonly detail: string;
}

/** A pending transaction a block built on the head left out: it stays in the pool, with the reason it waits. */
export interface TxWaitingEvent {
  readonly tx: PooledTx;
  readonly reason: string;
  /** True when it cannot go into a block as things stand (see `TxPool.noteWaiting`); false when it only did not fit. */
  readonly stuck: boolean;
}

export interface TxPoolEvents {
  /** A transaction was accepted (pending-transaction filters and subscriptions listen here). */
  'tx:added': [event: TxAddedEvent];
  /** A queued transaction became executable because its nonce gap closed. */
  'tx:promoted': [tx: PooledTx];
  /** A transaction left the pool. */
  'tx:dropped': [event: TxDroppedEvent];
  /** A block built on the head left a pending transaction out; it stays, with the reason. */
  'tx:waiting': [event: TxWaitingEvent];
}

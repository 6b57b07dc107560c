/**
 * The transaction pool (JSON-RPC-free). Wire it with a `PoolChainView` over the engine; see
 * chain-view.ts for what each member must answer.
 */
export { TxPool, type AddTxResult, type ReorgResult } from './txpool.js';
export type { TxAddedEvent, TxDropReason, TxDroppedEvent, TxPoolEvents } from './events.js';
export type { PoolChainView, PoolAccount } from './chain-view.js';
export {
  FEE_MARKET_REFUSAL,
  TxRejectedError,
  feeMarketRefused,
  isTxRejectedError,
  type TxRejectionReason,
  type TxRejectionDetails,
} from './errors.js';
export {
  POOL_ORDERS,
  resolvePoolOptions,
  type PoolOrder,
  type TxPoolOptions,
  type ResolvedPoolOptions,
} from './options.js';
export { ExecutableTxCursor } from './executable-cursor.js';
export { decodePoolTransaction, recoverSender, type PoolTransaction, type DecodeRules } from './decode.js';
export { SenderRecovery, type SenderRecoveryCounts, type SenderRecoveryOptions } from './sender-recovery.js';
export type { PooledTx, PoolTxStatus } from './pooled-tx.js';
export { PoolSettle, SETTLE_WAIT_MS, type SubmitResult } from './settle.js';

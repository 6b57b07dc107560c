import type { SenderRecoveryOptions } from './sender-recovery.js';

/** The order a block takes executable transactions in: highest gas price first, or first come first served. */
export const POOL_ORDERS = ['fees', 'fifo'] as const;
export type PoolOrder = (typeof POOL_ORDERS)[number];

/** Tunables of the transaction pool. Every field is optional; `resolvePoolOptions` fills the defaults. */
export interface TxPoolOptions {
  /** Most transactions held (pending + queued). Default 1000 (the product's `txPool.tx-pool-size`). */
  maxSize?: number;
  /** Most transactions held per sender. Default 256. */
  maxPerSender?: number;
  /**
   * How long a queued (not yet executable) transaction may wait for its nonce gap to fill, in ms.
   * Default 120,000 (the product's `txPool.transaction-timeout`).
   */
  queuedLifetimeMs?: number;
  /** Lowest gas price accepted, in wei. Default 0 (the dev chain and `eth_gasPrice` can be 0). */
  minGasPrice?: bigint;
  /** A same-sender same-nonce replacement must raise the gas price by at least this many percent. Default 10. */
  priceBumpPercent?: number;
  /** Accept legacy transactions signed without a chain id (pre-EIP-155, v = 27/28). Default false. */
  allowUnprotected?: boolean;
  /** Largest encoded transaction accepted, in bytes. Default 131,072 (128 KiB, as geth). */
  maxTxBytes?: number;
  /** The order block assembly walks the pool in. Default `fees`. */
  order?: PoolOrder;
  /** Clock in ms, for tests. Default `Date.now`. */
  now?: () => number;
  /** Where senders are recovered (a worker thread by default) and whom to tell if the worker fails. */
  senderRecovery?: SenderRecoveryOptions;
}

export type ResolvedPoolOptions = Required<TxPoolOptions>;

export function resolvePoolOptions(options: TxPoolOptions = {}): ResolvedPoolOptions {
  const resolved: ResolvedPoolOptions = {
    maxSize: options.maxSize ?? 1000,
    maxPerSender: options.maxPerSender ?? 256,
    queuedLifetimeMs: options.queuedLifetimeMs ?? 120_000,
    minGasPrice: options.minGasPrice ?? 0n,
    priceBumpPercent: options.priceBumpPercent ?? 10,
    allowUnprotected: options.allowUnprotected ?? false,
    maxTxBytes: options.maxTxBytes ?? 128 * 1024,
    order: options.order ?? 'fees',
    now: options.now ?? Date.now,
    senderRecovery: options.senderRecovery ?? {},
  };
  for (const key of ['maxSize', 'maxPerSender', 'maxTxBytes'] as const) {
    if (!Number.isInteger(resolved[key]) || resolved[key] < 1)
      throw new RangeError(`txpool ${key} must be a positive integer`);
  }
  if (!Number.isInteger(resolved.priceBumpPercent) || resolved.priceBumpPercent < 0) {
    throw new RangeError('txpool priceBumpPercent must be a non-negative integer');
  }
  if (resolved.minGasPrice < 0n) throw new RangeError('txpool minGasPrice must not be negative');
  return resolved;
}

/**
 * Why the pool refused a transaction. The handler of `eth_sendRawTransaction` turns a
 * `TxRejectedError` into JSON-RPC -32003 ("Transaction rejected") with `message` as the text, except
 * where the product answers differently (undecodable input / unrecoverable sender: -32600, see
 * product-behaviour §3). Messages start with geth's wording where one exists ("nonce too low",
 * "insufficient funds", "replacement transaction underpriced", "only replay-protected"), because
 * ethers and viem classify node errors by matching those phrases.
 */
export type TxRejectionReason =
  /** Not a transaction: bad RLP, wrong field count, leading zeros, values out of range. */
  | 'undecodable'
  /** The signature does not recover to a sender (bad v/r/s, s above secp256k1n/2). */
  | 'invalid-signature'
  /** Transaction type other than legacy (0) and EIP-2930 (1), or type 1 before Magneto. */
  | 'unsupported-type'
  /** EIP-155 chain id (legacy v, or the type-1 chainId field) is not this network's. */
  | 'chain-id-mismatch'
  /** A pre-EIP-155 (v = 27/28) legacy transaction while the pool is configured to refuse them. */
  | 'unprotected'
  /** A replay-protected transaction before this network activated EIP-155 (ETC Die Hard). */
  | 'replay-protection-inactive'
  /** Encoded size above the configured maximum. */
  | 'oversized'
  | 'already-known'
  | 'gas-price-too-low'
  | 'gas-limit-exceeds-block-limit'
  | 'intrinsic-gas-too-low'
  | 'nonce-too-low'
  | 'insufficient-funds'
  | 'replacement-underpriced'
  /** The sender already has the configured maximum number of pooled transactions. */
  | 'sender-limit'
  /** The pool is at capacity and the transaction does not pay more than the cheapest evictable one. */
  | 'pool-full';

/** Numbers behind a rejection, for callers that want more than the message (all amounts in wei / gas units). */
export interface TxRejectionDetails {
  readonly expectedNonce?: bigint;
  readonly nonce?: bigint;
  readonly need?: bigint;
  readonly have?: bigint;
  readonly minimum?: bigint;
  readonly limit?: bigint;
  readonly chainId?: bigint;
  readonly expectedChainId?: bigint;
}

export class TxRejectedError extends Error {
  override readonly name = 'TxRejectedError';

  constructor(
    readonly reason: TxRejectionReason,
    message: string,
    readonly details: TxRejectionDetails = {},
  ) {
    super(message);
  }
}

/**
 * The refusal of an EIP-1559 (type 2) transaction, whether it arrives signed (eth_sendRawTransaction) or as a request
 * with maxFeePerGas (eth_sendTransaction): the fee market is not active on Ethereum Classic, so the message says how
 * to send the legacy transaction that works instead. Starts with geth's "transaction type not supported".
 */
export const FEE_MARKET_REFUSAL =
  'transaction type not supported: EIP-1559 (type 2, maxFeePerGas / maxPriorityFeePerGas) transactions are not ' +
  'active on Ethereum Classic, which has no base fee; send a legacy transaction instead: type 0 with gasPrice ' +
  '(ethers / viem: `type: 0`; Foundry: `cast send --legacy`, `forge script --legacy`)';

export function feeMarketRefused(): TxRejectedError {
  return new TxRejectedError('unsupported-type', FEE_MARKET_REFUSAL);
}

export function isTxRejectedError(error: unknown): error is TxRejectedError {
  return error instanceof TxRejectedError;
}

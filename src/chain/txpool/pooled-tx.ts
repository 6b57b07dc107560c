import type { TypedTransaction } from '@ethereumjs/tx';
import { type Address, bytesToHex } from '@ethereumjs/util';
import type { PoolTransaction } from './decode.js';

/** A transaction the pool holds, with what ordering and validation need precomputed. Immutable. */
export interface PooledTx {
  readonly tx: PoolTransaction;
  readonly hash: Uint8Array;
  /** 0x-prefixed lowercase hash: the pool's key. */
  readonly hashHex: string;
  /** The canonical encoding (what `eth_getRawTransactionByHash` returns and what goes into a block). */
  readonly raw: Uint8Array;
  readonly sender: Address;
  /** 0x-prefixed lowercase sender address. */
  readonly senderHex: string;
  readonly nonce: bigint;
  readonly gasPrice: bigint;
  readonly gasLimit: bigint;
  /** Most the transaction can take from the sender: gasLimit * gasPrice + value. */
  readonly cost: bigint;
  /** When the pool accepted it (ms, from the pool's clock). */
  readonly addedAt: number;
  /** Arrival order, unique per pool: breaks gas-price ties first-come-first-served. */
  readonly seq: number;
}

/** Whether a pooled transaction can go into the next block (`pending`) or waits for a nonce gap (`queued`). */
export type PoolTxStatus = 'pending' | 'queued';

/** The pool's key of a transaction hash (bytes, or 0x hex in any case). */
export function hashKey(hash: Uint8Array | string): string {
  return typeof hash === 'string' ? hash.toLowerCase() : bytesToHex(hash);
}

/** The pool's key of a transaction's sender; undefined when none can be recovered. */
export function senderOf(tx: TypedTransaction): string | undefined {
  try {
    return tx.getSenderAddress().toString();
  } catch {
    return undefined;
  }
}

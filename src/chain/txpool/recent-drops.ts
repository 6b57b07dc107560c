/**
 * The pool's memory of the transactions it let go, so that whoever asks about a hash the pool no longer holds
 * learns why (svc_getDroppedTransaction): bounded to the last `capacity` drops, oldest forgotten first. Mined
 * transactions are not kept (their receipt says what happened); a hash that re-enters the pool is forgotten.
 */
import type { TxDropReason } from './events.js';
import type { PooledTx } from './pooled-tx.js';

/** Drops remembered by default: enough for a full default pool turning over, ~200 bytes each. */
export const RECENT_DROPS_CAPACITY = 1024;

export interface DroppedTxRecord {
  readonly hash: string;
  readonly sender: string;
  readonly nonce: bigint;
  readonly reason: TxDropReason;
  /** The reason in words, with the figures behind it (what the node's log line says too). */
  readonly detail: string;
  /** When the pool let it go (ms since the epoch, from the pool's clock). */
  readonly droppedAt: number;
}

export class RecentDrops {
  readonly #byHash = new Map<string, DroppedTxRecord>();

  constructor(private readonly capacity = RECENT_DROPS_CAPACITY) {}

  record(tx: PooledTx, reason: TxDropReason, detail: string, at: number): void {
    this.#byHash.delete(tx.hashHex);
    this.#byHash.set(tx.hashHex, {
      hash: tx.hashHex,
      sender: tx.senderHex,
      nonce: tx.nonce,
      reason,
      detail,
      droppedAt: at,
    });
    if (this.#byHash.size > this.capacity) this.#byHash.delete(this.#byHash.keys().next().value!);
  }

  get(hashHex: string): DroppedTxRecord | undefined {
    return this.#byHash.get(hashHex);
  }

  forget(hashHex: string): void {
    this.#byHash.delete(hashHex);
  }

  clear(): void {
    this.#byHash.clear();
  }

  get size(): number {
    return this.#byHash.size;
  }
}

/**
 * Which transaction makes room when the pool is full: the cheapest sender tail (a highest-nonce transaction, so
 * no sender is left with a gap), and only for a newcomer that pays strictly more.
 */
import type { Candidate } from './admission.js';
import { TxRejectedError } from './errors.js';
import type { PooledTx } from './pooled-tx.js';
import type { SenderQueue } from './sender-queue.js';

/** The transaction to evict for `candidate`; a `pool-full` rejection when none may go. */
export function evictionVictim(
  candidate: Candidate,
  senders: Iterable<SenderQueue>,
  poolSize: number,
  maxSize: number,
): PooledTx {
  let cheapest: PooledTx | undefined;
  for (const queue of senders) {
    const tail = queue.tail();
    if (tail === undefined) continue;
    if (
      cheapest === undefined ||
      tail.gasPrice < cheapest.gasPrice ||
      (tail.gasPrice === cheapest.gasPrice && tail.seq > cheapest.seq)
    ) {
      cheapest = tail;
    }
  }
  const wouldOpenOwnGap =
    cheapest !== undefined && cheapest.senderHex === candidate.senderHex && cheapest.nonce < candidate.tx.nonce;
  if (cheapest === undefined || candidate.tx.gasPrice <= cheapest.gasPrice || wouldOpenOwnGap) {
    const floor = cheapest?.gasPrice ?? 0n;
    throw new TxRejectedError(
      'pool-full',
      `txpool is full: it holds ${poolSize} transactions (the limit); a new one must pay a gas price above ` +
        `${floor} wei, the cheapest evictable one, and this one pays ${candidate.tx.gasPrice} wei`,
      { have: candidate.tx.gasPrice, minimum: floor + 1n, limit: BigInt(maxSize) },
    );
  }
  return cheapest;
}

/**
 * For the in-process engine benches: a promise that settles once the dev miner has sealed `count` more transactions
 * (in however many blocks), made before the transactions are added so no `sealed` event is missed.
 */
interface SealEvents {
  on(event: 'sealed', listener: (sealed: { transactions: readonly unknown[] }) => void): unknown;
  off(event: 'sealed', listener: (sealed: { transactions: readonly unknown[] }) => void): unknown;
}

export function untilSealed(miner: SealEvents, count: number): Promise<void> {
  let left = count;
  return new Promise<void>((resolve) => {
    const onSealed = (sealed: { transactions: readonly unknown[] }) => {
      left -= sealed.transactions.length;
      if (left > 0) return;
      miner.off('sealed', onSealed);
      resolve();
    };
    miner.on('sealed', onSealed);
  });
}

/**
 * What the miner walks to fill a block: executable transactions, highest gas price first, while each
 * sender's transactions stay in nonce order (a sender's next transaction becomes a candidate only
 * after the previous one was taken). Equal prices go first-come-first-served.
 *
 * It works on a snapshot taken at creation, so the pool may change while a block is assembled.
 */
import { BinaryHeap } from './binary-heap.js';
import type { PoolOrder } from './options.js';
import type { PooledTx } from './pooled-tx.js';

interface SenderRun {
  readonly txs: readonly PooledTx[];
  index: number;
}

function runHead(run: SenderRun): PooledTx {
  return run.txs[run.index];
}

function pricedBefore(a: SenderRun, b: SenderRun): boolean {
  const x = runHead(a);
  const y = runHead(b);
  if (x.gasPrice !== y.gasPrice) return x.gasPrice > y.gasPrice;
  return x.seq < y.seq;
}

/** `--order fifo`: the transaction that reached the pool first, whatever it pays. */
const arrivedBefore = (a: SenderRun, b: SenderRun): boolean => runHead(a).seq < runHead(b).seq;

export class ExecutableTxCursor implements Iterable<PooledTx> {
  private readonly heap: BinaryHeap<SenderRun>;

  constructor(pendingBySender: Iterable<readonly PooledTx[]>, order: PoolOrder = 'fees') {
    this.heap = new BinaryHeap<SenderRun>(order === 'fifo' ? arrivedBefore : pricedBefore);
    for (const txs of pendingBySender) if (txs.length > 0) this.heap.push({ txs, index: 0 });
  }

  /** The best remaining transaction, or undefined when none is left. */
  peek(): PooledTx | undefined {
    const run = this.heap.peek();
    return run === undefined ? undefined : runHead(run);
  }

  /** The peeked transaction was included: its sender's next transaction becomes a candidate. */
  shift(): void {
    const run = this.heap.peek();
    if (run === undefined) return;
    run.index++;
    if (run.index < run.txs.length) this.heap.replaceTop(run);
    else this.heap.pop();
  }

  /**
   * The peeked transaction cannot be included (it failed, or does not fit the remaining gas): skip it
   * and every later transaction of its sender, whose nonces now cannot follow.
   */
  skipSender(): void {
    this.heap.pop();
  }

  /** Takes every transaction in order (each one counts as included). */
  *[Symbol.iterator](): Iterator<PooledTx> {
    for (let tx = this.peek(); tx !== undefined; tx = this.peek()) {
      this.shift();
      yield tx;
    }
  }
}

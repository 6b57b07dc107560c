/**
 * Transaction senders of the read-ahead's blocks, recovered on the pool's recovery worker before the blocks execute:
 * the answers are cached on the transactions where execution looks (`getSenderAddress`), so the importing thread
 * does not recover them. A transaction the pool's rules refuse (a Frontier signature with a high s) is left to the
 * import, which recovers and judges it as ever.
 */
import type { Block } from '@ethereumjs/block';
import type { PoolTransaction } from '../txpool/decode.js';
import { SenderRecovery } from '../txpool/sender-recovery.js';

export class AheadSenders {
  private readonly recovery = new SenderRecovery({ startWorkerAfter: 0, minWorkerBatch: 1 });

  recoverAhead(blocks: readonly Block[]): Promise<void> {
    const txs = blocks.flatMap((b) => b.transactions);
    if (txs.length === 0) return Promise.resolve();
    const refused = () => undefined;
    return Promise.all(txs.map((tx) => this.recovery.recover(tx as PoolTransaction).catch(refused))).then(refused);
  }

  close(): Promise<void> {
    return this.recovery.close();
  }
}

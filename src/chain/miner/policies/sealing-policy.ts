import type { Block } from '@ethereumjs/block';

/**
 * What `start()` runs until `stop()`: one per miner, picked by `MinerOptions.policy`. The miner tells it when the
 * head moved and when new executable work arrived; it owns its own loop, timers and cancellation.
 */
export interface SealingPolicy {
  start(): void;
  /** Resolves once the block in progress (if any) is finished or abandoned. */
  stop(): Promise<void>;
  onNewHead(head: Block): void;
  onExecutableTx(): void;
  /** Coinbase or extra data changed: a template in progress pays the old values. */
  templatesChanged(): void;
}

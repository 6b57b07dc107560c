/**
 * Blocks this chain assembled and sealed, with their execution: importing one reuses that execution (and skips a
 * seal the sealer already verified; an Ethash light hash is ~10 ms) instead of running it again.
 */
import type { Block } from '@ethereumjs/block';
import type { RunnerResult } from '../exec/block-runner.js';

export interface SealedExecution {
  readonly result: RunnerResult;
  readonly sealVerified: boolean;
}

export class SealedBlocks {
  private readonly executions = new WeakMap<Block, RunnerResult>();
  private readonly sealChecked = new WeakSet<Block>();

  note(block: Block, result: RunnerResult, sealVerified: boolean): void {
    this.executions.set(block, result);
    if (sealVerified) this.sealChecked.add(block);
  }

  /** Whether `block` is one this chain assembled and has not imported yet. */
  has(block: Block): boolean {
    return this.executions.has(block);
  }

  /** Whether the sealer verified `block`'s seal. */
  sealVerified(block: Block): boolean {
    return this.sealChecked.has(block);
  }

  /** The execution `block` was assembled with, handed over once: kept, it would hold its state (caches, node buffer) as long as the block stays cached. */
  take(block: Block): RunnerResult | undefined {
    const result = this.executions.get(block);
    this.executions.delete(block);
    return result;
  }
}

/**
 * Where block imports spend the importing thread's time, summed over every import since the chain opened: the
 * history import (archive/history-import.ts) reads it before and after a run, so its report names the bound.
 * Spans are wall time on the main thread, their awaits included (a LevelDB read waits in `validate` or `execute`;
 * without write-behind, the block's write waits in `store`).
 */
export interface ImportTimesSnapshot {
  readonly blocks: number;
  /** Header, seal (when no verdict was ready), body and uncle rules, and the store reads they need. */
  readonly validateMs: number;
  /** Opening the parent's state, the transactions, rewards, the roots. */
  readonly executeMs: number;
  /** Staging the block's batch (state nodes, receipts, indexes), fork choice, the flat state's diff, the write. */
  readonly storeMs: number;
}

export class ImportTimes {
  private blocks = 0;
  private validateMs = 0;
  private executeMs = 0;
  private storeMs = 0;

  note(validateMs: number, executeMs: number, storeMs: number): void {
    this.blocks++;
    this.validateMs += validateMs;
    this.executeMs += executeMs;
    this.storeMs += storeMs;
  }

  snapshot(): ImportTimesSnapshot {
    return { blocks: this.blocks, validateMs: this.validateMs, executeMs: this.executeMs, storeMs: this.storeMs };
  }
}

/** What happened between two snapshots. */
export function importTimesSince(before: ImportTimesSnapshot, after: ImportTimesSnapshot): ImportTimesSnapshot {
  return {
    blocks: after.blocks - before.blocks,
    validateMs: after.validateMs - before.validateMs,
    executeMs: after.executeMs - before.executeMs,
    storeMs: after.storeMs - before.storeMs,
  };
}

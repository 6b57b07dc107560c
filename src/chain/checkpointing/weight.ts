/**
 * Fork choice with checkpoints (ECIP-1097, Mantis `ChainWeight`): a chain's weight is (number of its latest
 * checkpoint block, total difficulty), compared in that order, so a later checkpoint wins over any amount of work.
 * Without checkpointing every chain's latest checkpoint is 0 and this is plain total difficulty.
 */
export interface ChainWeight {
  /** Number of the newest checkpoint block in the chain ending at this block; 0 when it has none. */
  readonly lastCheckpoint: bigint;
  readonly totalDifficulty: bigint;
}

export function heavier(a: ChainWeight, b: ChainWeight): boolean {
  if (a.lastCheckpoint !== b.lastCheckpoint) return a.lastCheckpoint > b.lastCheckpoint;
  return a.totalDifficulty > b.totalDifficulty;
}

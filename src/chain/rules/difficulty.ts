/**
 * Ethash difficulty: the Frontier, Homestead (EIP-2) and Byzantium (EIP-100) adjustments, the
 * minimum-difficulty clamp, and the "ice age" bomb with Ethereum's delays (EIP-649/1234/2384/3554/
 * 4345/5133) or ETC's ECIP-1010 pause and ECIP-1041 removal. Integer arithmetic on bigint, the
 * order of operations as in core-geth `CalcDifficulty`: adjust, clamp, then add the bomb.
 */

export interface DifficultyBombDelay {
  /** Block from which this delay applies (the newest applicable entry wins). */
  readonly from: bigint;
  /** The bomb sees block number `n − delay` (floored at 0). */
  readonly delay: bigint;
}

export interface DifficultyConfig {
  readonly minimumDifficulty: bigint;
  /** EIP-2 adjustment from this block (null = Frontier rule forever). */
  readonly homesteadBlock: bigint | null;
  /** EIP-100 uncle-aware adjustment from this block (Byzantium/Atlantis). */
  readonly eip100Block: bigint | null;
  readonly bomb: {
    /** Ethereum-style absolute delays. */
    readonly delays: readonly DifficultyBombDelay[];
    /** ECIP-1010: the bomb clock stops at `pauseBlock` and runs again, delayed by the pause length, from `continueBlock`. */
    readonly ecip1010Pause: { readonly pauseBlock: bigint; readonly continueBlock: bigint } | null;
    /** ECIP-1041: no bomb from this block. */
    readonly removedFrom: bigint | null;
  };
}

/** What the formula needs of the parent header. */
export interface DifficultyParent {
  readonly number: bigint;
  readonly timestamp: bigint;
  readonly difficulty: bigint;
  /** true when the parent's uncle hash is not the empty-list hash. */
  readonly hasUncles: boolean;
}

const DIFFICULTY_BOUND_DIVISOR = 2048n;
const FRONTIER_DURATION_LIMIT = 13n;
const EXP_DIFF_PERIOD = 100_000n;

const active = (at: bigint | null, n: bigint): boolean => at !== null && n >= at;
const max = (a: bigint, b: bigint): bigint => (a > b ? a : b);

/** The block number the bomb formula sees for block `n`, or null when there is no bomb. */
export function bombPeriodReference(config: DifficultyConfig, n: bigint): bigint | null {
  const { bomb } = config;
  if (active(bomb.removedFrom, n)) return null;
  const pause = bomb.ecip1010Pause;
  if (pause !== null && n >= pause.pauseBlock) {
    return n < pause.continueBlock ? pause.pauseBlock : n - (pause.continueBlock - pause.pauseBlock);
  }
  let delay = 0n;
  let newestFrom = -1n;
  for (const entry of bomb.delays) {
    if (n >= entry.from && entry.from >= newestFrom) {
      delay = entry.delay;
      newestFrom = entry.from;
    }
  }
  return max(n - delay, 0n);
}

/** The bomb term `2^(ref/100000 − 2)` (0 while `ref/100000 ≤ 1` or without bomb). */
export function difficultyBomb(config: DifficultyConfig, n: bigint): bigint {
  const ref = bombPeriodReference(config, n);
  if (ref === null) return 0n;
  const period = ref / EXP_DIFF_PERIOD;
  return period > 1n ? 1n << (period - 2n) : 0n;
}

/** Difficulty required of a block at `timestamp` on top of `parent`. */
export function calcDifficulty(config: DifficultyConfig, parent: DifficultyParent, timestamp: bigint): bigint {
  const n = parent.number + 1n;
  const step = parent.difficulty / DIFFICULTY_BOUND_DIVISOR;
  // Bigint division truncates toward zero like Go's big.Int Div for the non-negative Δt of valid
  // headers; a timestamp at or before the parent's is rejected by header validation anyway.
  const elapsed = timestamp - parent.timestamp;
  let difficulty: bigint;
  if (active(config.eip100Block, n)) {
    difficulty = parent.difficulty + step * max((parent.hasUncles ? 2n : 1n) - elapsed / 9n, -99n);
  } else if (active(config.homesteadBlock, n)) {
    difficulty = parent.difficulty + step * max(1n - elapsed / 10n, -99n);
  } else {
    difficulty = elapsed < FRONTIER_DURATION_LIMIT ? parent.difficulty + step : parent.difficulty - step;
  }
  difficulty = max(difficulty, config.minimumDifficulty);
  return difficulty + difficultyBomb(config, n);
}

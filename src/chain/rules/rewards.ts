/**
 * Block and uncle rewards: ETC's ECIP-1017 eras (5 ETC, −20% every era, ECIP-1039 single rounding)
 * and plain Ethash rewards (Ethereum's 5/3/2 ETH schedule, and ETC before Gotham).
 */

/** 5 ETC/ETH in wei: Frontier's block reward and ECIP-1017's era-0 reward. */
export const FRONTIER_BLOCK_REWARD = 5n * 10n ** 18n;
export const MAX_UNCLES_PER_BLOCK = 2;

export type RewardConfig =
  /** ETC: plain Ethash at 5 ETC before `gothamBlock`, ECIP-1017 eras from it. */
  | { readonly kind: 'ecip1017'; readonly gothamBlock: bigint | null; readonly eraLength: bigint }
  /** Ethereum: the newest schedule entry at or below the block number gives the base reward. */
  | { readonly kind: 'ethash'; readonly schedule: readonly { readonly from: bigint; readonly reward: bigint }[] };

export interface UncleRef {
  readonly number: bigint;
}

export interface BlockRewards {
  /** Credited to the block's coinbase (base reward + inclusion rewards for uncles). */
  readonly miner: bigint;
  /** Credited to each uncle's coinbase, same order as the uncles given. */
  readonly uncles: readonly bigint[];
}

/** ECIP-1017 era of block `n`: 0 for blocks 1..eraLength, 1 from eraLength+1, and so on. */
export function eraOf(n: bigint, eraLength: bigint): bigint {
  return n < 1n ? 0n : (n - 1n) / eraLength;
}

/** Winner reward in era `era`: 5 ETC · 4^era / 5^era, rounded down once (ECIP-1039). */
export function eraBlockReward(era: bigint): bigint {
  return (FRONTIER_BLOCK_REWARD * 4n ** era) / 5n ** era;
}

/** Uncle miner's share under plain Ethash: (uncle + 8 − n) / 8 of the base reward. */
function ethashUncleReward(base: bigint, blockNumber: bigint, uncle: UncleRef): bigint {
  return ((uncle.number + 8n - blockNumber) * base) / 8n;
}

function ethashBaseReward(schedule: readonly { from: bigint; reward: bigint }[], n: bigint): bigint {
  let reward = 0n;
  let newestFrom = -1n;
  for (const entry of schedule) {
    if (n >= entry.from && entry.from >= newestFrom) {
      reward = entry.reward;
      newestFrom = entry.from;
    }
  }
  return reward;
}

/**
 * Rewards for block `blockNumber` including `uncles` (already validated: at most 2, depth 1..6).
 */
export function blockRewards(config: RewardConfig, blockNumber: bigint, uncles: readonly UncleRef[]): BlockRewards {
  if (config.kind === 'ecip1017' && config.gothamBlock !== null && blockNumber >= config.gothamBlock) {
    const era = eraOf(blockNumber, config.eraLength);
    const winner = eraBlockReward(era);
    const perUncle = winner / 32n;
    return {
      miner: winner + perUncle * BigInt(uncles.length),
      // Era 0 keeps the Ethash depth-scaled uncle reward; later eras pay uncle miners a flat 1/32.
      uncles: uncles.map((u) => (era === 0n ? ethashUncleReward(FRONTIER_BLOCK_REWARD, blockNumber, u) : perUncle)),
    };
  }
  const base = config.kind === 'ecip1017' ? FRONTIER_BLOCK_REWARD : ethashBaseReward(config.schedule, blockNumber);
  return {
    miner: base + (base / 32n) * BigInt(uncles.length),
    uncles: uncles.map((u) => ethashUncleReward(base, blockNumber, u)),
  };
}

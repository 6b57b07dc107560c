/**
 * A chain's consensus rules as one value: difficulty, rewards, gas limit bounds and header limits.
 * `etcRules(network)` derives them from an ETC network definition; `ethRules(forks)` builds
 * Ethereum's (used by the test namespace, which replays Ethereum consensus tests).
 */
import type { NetworkDefinition } from '../networks/types.js';
import type { DifficultyBombDelay, DifficultyConfig } from './difficulty.js';
import { FRONTIER_BLOCK_REWARD, type RewardConfig } from './rewards.js';

export interface ChainRules {
  readonly difficulty: DifficultyConfig;
  readonly rewards: RewardConfig;
  /** Largest extraData of a non-genesis header (bytes). */
  readonly maxExtraDataSize: number;
  /** How far a header's timestamp may run ahead of the local clock (seconds). */
  readonly allowedFutureSeconds: bigint;
  /** Uncles may be at most this many generations older than the including block. */
  readonly maxUncleDepth: bigint;
  readonly maxUncles: number;
}

const HEADER_LIMITS = { maxExtraDataSize: 32, allowedFutureSeconds: 15n, maxUncleDepth: 6n, maxUncles: 2 } as const;

/** ETC rules of a network (ECIP-1010 pause, ECIP-1041 removal, ECIP-1017 eras, no EIP-649). */
export function etcRules(network: NetworkDefinition): ChainRules {
  const { forks } = network;
  return {
    difficulty: {
      minimumDifficulty: network.pow.minimumDifficulty,
      homesteadBlock: forks.homestead,
      eip100Block: forks.atlantis,
      bomb: { delays: [], ecip1010Pause: network.bombPause, removedFrom: forks.defuse },
    },
    rewards: { kind: 'ecip1017', gothamBlock: forks.gotham, eraLength: network.eraLength },
    ...HEADER_LIMITS,
  };
}

/** Ethereum fork blocks that change difficulty or rewards (null = not scheduled). */
export interface EthConsensusForks {
  readonly homestead?: bigint | null;
  readonly byzantium?: bigint | null;
  readonly constantinople?: bigint | null;
  readonly muirGlacier?: bigint | null;
  readonly london?: bigint | null;
  readonly arrowGlacier?: bigint | null;
  readonly grayGlacier?: bigint | null;
  /** Defaults to 131,072. */
  readonly minimumDifficulty?: bigint;
}

/** Bomb delays of Ethereum's forks (EIP-649, 1234, 2384, 3554, 4345, 5133). */
const ETH_BOMB_DELAYS: ReadonlyArray<readonly [keyof EthConsensusForks, bigint]> = [
  ['byzantium', 3_000_000n],
  ['constantinople', 5_000_000n],
  ['muirGlacier', 9_000_000n],
  ['london', 9_700_000n],
  ['arrowGlacier', 10_700_000n],
  ['grayGlacier', 11_400_000n],
];

/** Ethereum PoW rules (pre-merge) for the given fork blocks. */
export function ethRules(forks: EthConsensusForks): ChainRules {
  const at = (name: keyof EthConsensusForks): bigint | null => (forks[name] as bigint | null | undefined) ?? null;
  const delays: DifficultyBombDelay[] = [];
  for (const [name, delay] of ETH_BOMB_DELAYS) {
    const from = at(name);
    if (from !== null) delays.push({ from, delay });
  }
  const schedule = [{ from: 0n, reward: FRONTIER_BLOCK_REWARD }];
  const byzantium = at('byzantium');
  const constantinople = at('constantinople');
  if (byzantium !== null) schedule.push({ from: byzantium, reward: 3n * 10n ** 18n });
  if (constantinople !== null) schedule.push({ from: constantinople, reward: 2n * 10n ** 18n });
  return {
    difficulty: {
      minimumDifficulty: forks.minimumDifficulty ?? 131_072n,
      homesteadBlock: at('homestead'),
      eip100Block: byzantium,
      bomb: { delays, ecip1010Pause: null, removedFrom: null },
    },
    rewards: { kind: 'ethash', schedule },
    ...HEADER_LIMITS,
  };
}

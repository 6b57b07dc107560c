/**
 * Ethereum's rules for a test chain, per block: the EVM Common of the fork in force (Frontier … Berlin),
 * Ethereum difficulty with its bomb delays, the 5/3/2 ETH block rewards (or none, for NoReward chains), and the
 * DAO fork's extra-data rule. The vectors were filled with exactly these (reference: vectors/README.md,
 * "Ethereum Classic caveats"), so test mode must not apply ETC's ECIP-1017 or bomb removal to Ethereum names.
 */
import { Common, type HardforkTransitionConfig } from '@ethereumjs/common';
import { bytesToHex, equalsBytes, utf8ToBytes } from '@ethereumjs/util';
import { nativeCrypto } from '../base/crypto.js';
import { engineRules } from '../engine/engine-adapters.js';
import type { ChainRules, RewardCredit } from '../rules/engine-types.js';
import { ethRules } from '../rules/chainRules.js';
import { activeAt, type EthFork, type EthForkSchedule } from './fork-schedule.js';

/** The EVM-relevant forks and the @ethereumjs/common hardfork name each one is. */
const EVM_FORKS: ReadonlyArray<readonly [EthFork, string]> = [
  ['homestead', 'homestead'],
  ['tangerineWhistle', 'tangerineWhistle'],
  ['spuriousDragon', 'spuriousDragon'],
  ['byzantium', 'byzantium'],
  ['constantinople', 'constantinople'],
  ['petersburg', 'petersburg'],
  ['istanbul', 'istanbul'],
  ['berlin', 'berlin'],
];

/** Blocks that must carry this extra data from the DAO fork block on (geth `DAOForkExtraRange`). */
export const DAO_EXTRA_DATA = utf8ToBytes('dao-hard-fork');
export const DAO_EXTRA_RANGE = 10n;

const commons = new Map<string, Common>();

/**
 * A Common whose hardfork list ends at `hardfork`, every entry at block 0, so that anything re-aligning a copy by
 * block number (the VM does for transactions) lands on the same rules.
 */
export function ethCommon(hardfork: string, chainId: bigint, eips: readonly number[] = []): Common {
  const key = `${chainId}|${hardfork}|${eips.join(',')}`;
  let common = commons.get(key);
  if (common === undefined) {
    const names = ['chainstart', ...EVM_FORKS.map(([, name]) => name)];
    const hardforks: HardforkTransitionConfig[] = names
      .slice(0, names.indexOf(hardfork) + 1)
      .map((name) => ({ name, block: 0 }));
    common = new Common({
      chain: {
        name: `test-${hardfork}`,
        chainId: Number(chainId),
        defaultHardfork: hardfork,
        genesis: { gasLimit: 0, difficulty: 0, nonce: '0x0000000000000000', extraData: '0x' },
        hardforks,
        bootstrapNodes: [],
        consensus: { type: 'pow', algorithm: 'ethash', ethash: {} },
      },
      hardfork,
      ...(eips.length > 0 ? { eips: [...eips] } : {}),
      customCrypto: nativeCrypto,
    });
    commons.set(key, common);
  }
  return common;
}

/** The @ethereumjs hardfork name in force at `block`. */
export function ethHardforkAt(schedule: EthForkSchedule, block: bigint): string {
  let hardfork = 'chainstart';
  for (const [fork, name] of EVM_FORKS) if (activeAt(schedule, fork, block)) hardfork = name;
  return hardfork;
}

export interface EthTestRulesOptions {
  readonly schedule: EthForkSchedule;
  readonly chainId: bigint;
  readonly eips?: readonly number[];
  /** NoReward chains (state tests): no block or uncle rewards at all. */
  readonly noReward?: boolean;
}

/** The engine's ChainRules for an Ethereum test chain. No clock: test chains run at whatever time they say. */
export function ethTestRules(opts: EthTestRulesOptions): ChainRules {
  const { schedule } = opts;
  const block = (fork: EthFork): bigint | null => schedule[fork] ?? null;
  const consensus = ethRules({
    homestead: block('homestead'),
    byzantium: block('byzantium'),
    constantinople: block('constantinople'),
    muirGlacier: block('muirGlacier'),
  });
  const base = engineRules({
    consensus,
    commonAt: (n) => ethCommon(ethHardforkAt(schedule, n), opts.chainId, opts.eips),
  });
  const dao = schedule.dao;
  return {
    ...base,
    async validateHeader(parent, header) {
      const verdict = await base.validateHeader(parent, header);
      if (typeof verdict === 'string') return verdict;
      // A pro-fork chain marks its first ten blocks from the fork on, so that anti-fork peers part ways.
      if (
        dao !== undefined &&
        header.number >= dao &&
        header.number < dao + DAO_EXTRA_RANGE &&
        !equalsBytes(header.extraData, DAO_EXTRA_DATA)
      ) {
        return `DAO fork block ${header.number} must carry extra data ${bytesToHex(DAO_EXTRA_DATA)}`;
      }
      return undefined;
    },
    rewards:
      opts.noReward === true ? (header) => zeroReward(schedule, header.number, header.coinbase.bytes) : base.rewards,
  };
}

/**
 * NoReward still credits the coinbase with 0, as geth's reward step does: before EIP-158 (Spurious Dragon) that
 * touch creates the coinbase as an empty account, which the state tests' expected roots contain. From EIP-158 on
 * an empty touched account is removed again, so there is nothing to credit.
 */
function zeroReward(schedule: EthForkSchedule, number: bigint, coinbase: Uint8Array): RewardCredit[] {
  return activeAt(schedule, 'spuriousDragon', number) ? [] : [{ address: coinbase, amount: 0n }];
}

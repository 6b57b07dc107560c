/**
 * Which Ethereum forks a retesteth chain runs, and from which block: parsed from either params dialect
 * (product-behaviour §7.3). Fork names (`Berlin`, `FrontierToHomesteadAt5`, `Istanbul+2929`) or the classic
 * `…ForkBlock` keys both end up as one schedule: fork → activation block (absent = never).
 * `ETC_*` names select ETC rule sets instead and are returned as such.
 */
import { testQuantity } from './quantity.js';

/** Ethereum forks up to Berlin, in activation order. `dao` and `muirGlacier` change no EVM rule. */
export const ETH_FORKS = [
  'homestead',
  'dao',
  'tangerineWhistle',
  'spuriousDragon',
  'byzantium',
  'constantinople',
  'petersburg',
  'istanbul',
  'muirGlacier',
  'berlin',
] as const;
export type EthFork = (typeof ETH_FORKS)[number];
export type EthForkSchedule = Partial<Record<EthFork, bigint>>;

/** ETC rule sets reachable through `ETC_<Name>` fork names. */
export const ETC_TEST_FORKS = ['Atlantis', 'Agharta', 'Phoenix', 'Magneto', 'Mystique', 'Spiral', 'Bastion'] as const;
export type EtcTestFork = (typeof ETC_TEST_FORKS)[number];

export type ParsedForks =
  | { readonly kind: 'eth'; readonly schedule: EthForkSchedule; readonly eips: readonly number[] }
  | { readonly kind: 'etc'; readonly fork: EtcTestFork; readonly eips: readonly number[] };

export class ChainParamsError extends Error {}

/** Forks in force from block 0 under each Ethereum test fork name (as retesteth/geth's test configs define them). */
const BERLIN: readonly EthFork[] = [
  'homestead',
  'tangerineWhistle',
  'spuriousDragon',
  'byzantium',
  'constantinople',
  'petersburg',
  'istanbul',
  'muirGlacier',
  'berlin',
];
const NAMED: Readonly<Record<string, readonly EthFork[]>> = {
  Frontier: [],
  Homestead: ['homestead'],
  // Only reachable as a transition target (HomesteadToDaoAt5).
  Dao: ['homestead', 'dao'],
  EIP150: ['homestead', 'tangerineWhistle'],
  EIP158: ['homestead', 'tangerineWhistle', 'spuriousDragon'],
  Byzantium: ['homestead', 'tangerineWhistle', 'spuriousDragon', 'byzantium'],
  Constantinople: ['homestead', 'tangerineWhistle', 'spuriousDragon', 'byzantium', 'constantinople'],
  ConstantinopleFix: ['homestead', 'tangerineWhistle', 'spuriousDragon', 'byzantium', 'constantinople', 'petersburg'],
  Petersburg: ['homestead', 'tangerineWhistle', 'spuriousDragon', 'byzantium', 'constantinople', 'petersburg'],
  Istanbul: [
    'homestead',
    'tangerineWhistle',
    'spuriousDragon',
    'byzantium',
    'constantinople',
    'petersburg',
    'istanbul',
  ],
  Berlin: BERLIN,
};

/** Ethereum forks ETC never adopted as such: their cases need EIP-1559, the merge, withdrawals or blobs. */
export const UNSUPPORTED_ETH_FORKS = [
  'London',
  'ArrowGlacier',
  'GrayGlacier',
  'Paris',
  'Merge',
  'Shanghai',
  'Cancun',
  'Prague',
  'Osaka',
];

/** Is this fork name one the test mode can run (Frontier … Berlin, their transitions, ETC_ names)? */
export function isSupportedForkName(name: string): boolean {
  try {
    parseForkName(name);
    return true;
  } catch {
    return false;
  }
}

/** `Berlin`, `Istanbul+2929+2930`, `FrontierToHomesteadAt5`, `ETC_Magneto`. */
export function parseForkName(name: string): ParsedForks {
  const [base, ...suffixes] = name.split('+');
  const eips = suffixes.map((s) => {
    if (!/^\d+$/.test(s)) throw new ChainParamsError(`unknown EIP suffix "+${s}" in fork name ${name}`);
    return Number(s);
  });
  const etc = /^ETC_(\w+)$/.exec(base);
  if (etc !== null) {
    const fork = etc[1] as EtcTestFork;
    if (!ETC_TEST_FORKS.includes(fork)) throw new ChainParamsError(`unknown fork name ${name}`);
    return { kind: 'etc', fork, eips };
  }
  const transition = /^(\w+?)To(\w+)At(\d+)$/.exec(base);
  if (transition !== null) {
    const [, from, to, at] = transition;
    const before = named(from, name);
    const after = named(to, name);
    const schedule: EthForkSchedule = {};
    for (const fork of after) schedule[fork] = before.includes(fork) ? 0n : BigInt(at);
    for (const fork of before) schedule[fork] = 0n;
    return { kind: 'eth', schedule, eips };
  }
  const schedule: EthForkSchedule = {};
  for (const fork of named(base, name)) schedule[fork] = 0n;
  return { kind: 'eth', schedule, eips };
}

function named(base: string, whole: string): readonly EthFork[] {
  if (UNSUPPORTED_ETH_FORKS.includes(base)) {
    throw new ChainParamsError(
      `fork ${whole} is not supported: Ethereum Classic has no ${base} (EIP-1559, the merge, withdrawals, blobs)`,
    );
  }
  const forks = NAMED[base];
  if (forks === undefined) throw new ChainParamsError(`unknown fork name ${whole}`);
  return forks;
}

/** The classic dialect: one `…ForkBlock` number per fork, absent = never. */
const CLASSIC_KEYS: ReadonlyArray<readonly [string, EthFork]> = [
  ['homesteadForkBlock', 'homestead'],
  ['daoHardforkBlock', 'dao'],
  ['EIP150ForkBlock', 'tangerineWhistle'],
  ['EIP158ForkBlock', 'spuriousDragon'],
  ['byzantiumForkBlock', 'byzantium'],
  ['constantinopleForkBlock', 'constantinople'],
  ['constantinopleFixForkBlock', 'petersburg'],
  ['istanbulForkBlock', 'istanbul'],
  ['muirGlacierForkBlock', 'muirGlacier'],
  ['berlinForkBlock', 'berlin'],
];

export type ForkParams = Readonly<Record<string, unknown>>;

/** Both dialects; `fork` wins when present (retesteth sends …ForkBlock hints next to it). */
export function parseForkParams(params: ForkParams): ParsedForks {
  if (typeof params.fork === 'string') return parseForkName(params.fork);
  const london = params.londonForkBlock;
  if (london !== undefined && london !== null) {
    throw new ChainParamsError('londonForkBlock is not supported: Ethereum Classic has no London (EIP-1559)');
  }
  const schedule: EthForkSchedule = {};
  for (const [key, fork] of CLASSIC_KEYS) {
    const value = params[key];
    if (value === undefined || value === null) continue;
    schedule[fork] = testQuantity(value as string | number);
  }
  // Petersburg is Constantinople minus EIP-1283; Berlin's configs carry Muir Glacier's bomb delay.
  if (
    schedule.petersburg !== undefined &&
    (schedule.constantinople === undefined || schedule.constantinople > schedule.petersburg)
  ) {
    schedule.constantinople = schedule.petersburg;
  }
  if (schedule.berlin !== undefined && schedule.muirGlacier === undefined) schedule.muirGlacier = schedule.berlin;
  return { kind: 'eth', schedule, eips: [] };
}

/** Is `fork` active at `block`? */
export function activeAt(schedule: EthForkSchedule, fork: EthFork, block: bigint): boolean {
  const at = schedule[fork];
  return at !== undefined && block >= at;
}

/**
 * `override.<fork>` (`--override.<fork> <block|never>`, `[override] <fork> = <block>`): one setting per fork of the
 * schedule, made from the fork names, so a fork added to the schedule can be moved without a change here.
 */
import {
  devWithCheckpointing,
  ETC_FORK_NAMES,
  type EtcForkName,
  ForkOverrideError,
  type ForkOverrides,
  getNetwork,
  type NetworkName,
  withForkOverrides,
} from '../../chain/index.js';
import { ConfigError } from '../config-error.js';
import * as s from './setting.js';

type OverrideKey = `override.${EtcForkName}`;

const overrideSetting = (fork: EtcForkName) =>
  s.block({
    flag: `override.${fork}`,
    default: undefined,
    help: "the network's block",
    description: `${fork} at this block, or never`,
  });

export const overrideSettings = Object.fromEntries(
  ETC_FORK_NAMES.map((fork) => [`override.${fork}`, overrideSetting(fork)]),
) as Record<OverrideKey, ReturnType<typeof overrideSetting>>;

export const overrideKeyOf = (fork: EtcForkName): OverrideKey => `override.${fork}`;

/** The overrides given, checked against the network's schedule (fork order), as the chain takes them. */
export function forkOverridesOf(
  get: (key: OverrideKey) => string | undefined,
  network: NetworkName,
  checkpointing: boolean,
): ForkOverrides {
  const overrides: Record<string, bigint | null> = {};
  for (const fork of ETC_FORK_NAMES) {
    const value = get(overrideKeyOf(fork));
    if (value !== undefined) overrides[fork] = value === 'never' ? null : BigInt(value);
  }
  try {
    withForkOverrides(checkpointing ? devWithCheckpointing : getNetwork(network), overrides);
  } catch (err) {
    if (err instanceof ForkOverrideError) throw new ConfigError(`override: ${err.message}`);
    throw err;
  }
  return overrides;
}

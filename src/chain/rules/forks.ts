import type { EtcForkName, EtcForkSchedule } from '../networks/types.js';

/** Whether an upgrade scheduled at `activation` (null = never) is in force at block `blockNumber`. */
export function isActivated(activation: bigint | null, blockNumber: bigint): boolean {
  return activation !== null && blockNumber >= activation;
}

export function isForkActive(forks: EtcForkSchedule, fork: EtcForkName, blockNumber: bigint): boolean {
  return isActivated(forks[fork], blockNumber);
}

/**
 * The EVM rule sets of ETC, oldest first. Gotham, Defuse and Thanos change rewards, difficulty and
 * PoW only, so they never start a new EVM rule set.
 */
export const EVM_RULE_SETS = [
  'frontier',
  'homestead',
  'gasReprice',
  'dieHard',
  'atlantis',
  'agharta',
  'phoenix',
  'magneto',
  'mystique',
  'spiral',
  'bastion',
] as const;
export type EvmRuleSetName = (typeof EVM_RULE_SETS)[number];

/** The EVM rule set in force at `blockNumber`: the newest EVM-relevant upgrade already activated. */
export function evmRuleSetAt(forks: EtcForkSchedule, blockNumber: bigint): EvmRuleSetName {
  for (let i = EVM_RULE_SETS.length - 1; i > 0; i--) {
    const name = EVM_RULE_SETS[i] as Exclude<EvmRuleSetName, 'frontier'>;
    if (isActivated(forks[name], blockNumber)) return name;
  }
  return 'frontier';
}

/**
 * First block at which the EVM rule set changes after `blockNumber`, or null. Lets a block importer
 * keep one VM per rule set and know when to switch.
 */
export function nextEvmRuleSetChange(forks: EtcForkSchedule, blockNumber: bigint): bigint | null {
  let next: bigint | null = null;
  for (const name of EVM_RULE_SETS) {
    if (name === 'frontier') continue;
    const at = forks[name];
    if (at !== null && at > blockNumber && (next === null || at < next)) next = at;
  }
  return next;
}

/**
 * What `eth_config` (EIP-7910) reports: the fork in force at the head, the next scheduled one and the last one, each
 * with what a node must agree on to follow it. ETC's forks activate at blocks, not times, so a fork carries its
 * `activationBlock` where EIP-7910's timestamp chains carry `activationTime`.
 *
 * A "fork" here is what EIP-2124 counts: each distinct activation block of the schedule (block 0 = the genesis
 * rules), so `forkHash` of the current fork is the hash our eth STATUS sends. Several forks at one block are one fork,
 * named after the newest of them; forks that change no EVM rule (gotham, defuse, thanos) are forks too, with the
 * precompiles of the rule set they run.
 */
import type { EtcForkName, NetworkDefinition } from '../networks/types.js';
import { evmRuleSetAt, type EvmRuleSetName } from './forks.js';
import { ForkIdTable, forkBlocksOf } from './fork-id.js';
import { type Precompile, precompilesOf } from './precompiles.js';

export interface ForkConfig {
  /** The newest scheduled fork at this block (`frontier` for the genesis rules of a chain without forks at 0). */
  readonly name: EtcForkName | 'frontier';
  readonly activationBlock: bigint;
  readonly chainId: bigint;
  /** EIP-2124 fork hash once this fork is active (4 bytes). */
  readonly forkHash: Uint8Array;
  readonly ruleSet: EvmRuleSetName;
  readonly precompiles: readonly Precompile[];
}

export interface ForkConfigs {
  readonly current: ForkConfig;
  /** The first fork after the head, or null when none is scheduled. */
  readonly next: ForkConfig | null;
  /** The last scheduled fork; null when nothing is ahead of the head (as geth answers). */
  readonly last: ForkConfig | null;
}

function configAt(def: NetworkDefinition, table: ForkIdTable, block: bigint): ForkConfig {
  let name: EtcForkName | 'frontier' = 'frontier';
  // Schedule order is activation order (a test checks it), so the last fork at `block` is the newest.
  for (const [fork, at] of Object.entries(def.forks) as Array<[EtcForkName, bigint | null]>) {
    if (at === block) name = fork;
  }
  const ruleSet = evmRuleSetAt(def.forks, block);
  return {
    name,
    activationBlock: block,
    chainId: def.chainId,
    forkHash: table.at(block).hash,
    ruleSet,
    precompiles: precompilesOf(ruleSet),
  };
}

export function forkConfigsOf(def: NetworkDefinition, genesisHash: Uint8Array, head: bigint): ForkConfigs {
  const table = new ForkIdTable(genesisHash, forkBlocksOf(def));
  let current = 0n;
  for (const block of table.forks) if (block <= head) current = block;
  const ahead = table.forks.filter((block) => block > head);
  const next = ahead[0];
  const last = ahead[ahead.length - 1];
  return {
    current: configAt(def, table, current),
    next: next === undefined ? null : configAt(def, table, next),
    last: last === undefined ? null : configAt(def, table, last),
  };
}

/**
 * EVM rules per ETC rule set, as `@ethereumjs/common` v10 instances.
 *
 * Common has no ETC and gates several behaviours on hardfork *names*, so each ETC rule set gets its
 * own Common whose hardfork list ends at the Ethereum fork with the same EVM, all scheduled at
 * block 0: `setHardforkBy` (used by runBlock/createBlock with `setHardfork: true`) then always lands
 * on that same fork, so a cached instance cannot drift. Chain rules Common cannot express
 * (difficulty, ECIP-1017 rewards, Etchash, the bomb) live beside this module and ignore Common.
 *
 * Mapping (reference §1.6):
 *   frontier→chainstart, homestead→homestead, gasReprice→tangerineWhistle,
 *   dieHard→tangerineWhistle + EIP-160 EXP price (EIP-155 only for transactions, see `txRulesAt`),
 *   atlantis→byzantium (Spurious Dragon's 161/170 arrive here; no EIP-649: reward stays 5 ETC),
 *   agharta→petersburg, phoenix→istanbul, magneto→berlin,
 *   mystique→london with only [3529, 3541], spiral→shanghai with only [3651, 3855, 3860],
 *   bastion→spiral's shanghai plus BASTION_EIPS (Cancun's 1153/5656/6780, Prague's 2537, Osaka's 7823/7883/7939/7951).
 * Bastion stays on a shanghai base rather than osaka because Common's Cancun+ forks bring EIP-1559, blobs,
 * beacon roots and the 7702 set-code transactions ETC does not take; every Bastion EIP is gated in
 * @ethereumjs/evm by `isActivatedEIP` (opcodes, precompiles 0x0b–0x11 and 0x100, SELFDESTRUCT, MODEXP), never by
 * hardfork name, so listing them as extra EIPs of the shanghai entry is enough.
 */
import { Common, type ChainConfig, type HardforksDict, type HardforkTransitionConfig } from '@ethereumjs/common';
import { bytesToHex } from '@ethereumjs/util';
import { nativeCrypto } from '../base/crypto.js';
import type { NetworkDefinition } from '../networks/types.js';
import { evmRuleSetAt, type EvmRuleSetName } from './forks.js';

/** Ethereum hardfork names in Common's order; a rule set uses a prefix of this list. */
export const ETH_HARDFORK_ORDER = [
  'chainstart',
  'homestead',
  'tangerineWhistle',
  'spuriousDragon',
  'byzantium',
  'constantinople',
  'petersburg',
  'istanbul',
  'berlin',
  'london',
  'shanghai',
] as const;
type EthHardforkName = (typeof ETH_HARDFORK_ORDER)[number];

const EVM_HARDFORK: Record<EvmRuleSetName, EthHardforkName> = {
  frontier: 'chainstart',
  homestead: 'homestead',
  gasReprice: 'tangerineWhistle',
  dieHard: 'tangerineWhistle',
  atlantis: 'byzantium',
  agharta: 'petersburg',
  phoenix: 'istanbul',
  magneto: 'berlin',
  mystique: 'london',
  spiral: 'shanghai',
  bastion: 'shanghai',
};

/** ECIP-1130's EVM changes, added to the shanghai entry for the Bastion rule set only. */
export const BASTION_EIPS = [1153, 5656, 6780, 2537, 7823, 7883, 7939, 7951] as const;

/** ETC never took Byzantium's/Constantinople's reward cut: keep Frontier's 5 ETC for any code reading `minerReward`. */
const ETC_BASE_REWARD = '5000000000000000000';

function customHardforks(ruleSet: EvmRuleSetName): HardforksDict {
  const keepReward = { minerReward: ETC_BASE_REWARD };
  const forks: HardforksDict = {
    byzantium: { eips: [609], params: keepReward },
    constantinople: { eips: [1013], params: keepReward },
    london: { eips: [3529, 3541] },
    shanghai: { eips: [3651, 3855, 3860] },
  };
  // EIP-160 (EXP byte price 10 → 50) without the rest of Spurious Dragon; Common's EVM reads
  // `expByteGas` as a plain parameter, so an inline override on the last listed fork is enough.
  if (ruleSet === 'dieHard') forks.tangerineWhistle = { eips: [608], params: { expByteGas: 50 } };
  if (ruleSet === 'bastion') forks.shanghai = { eips: [3651, 3855, 3860, ...BASTION_EIPS] };
  return forks;
}

function chainConfig(network: NetworkDefinition, hardfork: EthHardforkName, ruleSet: EvmRuleSetName): ChainConfig {
  const last = ETH_HARDFORK_ORDER.indexOf(hardfork);
  const hardforks: HardforkTransitionConfig[] = ETH_HARDFORK_ORDER.slice(0, last + 1).map((name) => ({
    name,
    block: 0,
  }));
  const g = network.genesis.header;
  return {
    name: `${network.name}-${ruleSet}`,
    chainId: Number(network.chainId),
    defaultHardfork: hardfork,
    genesis: {
      gasLimit: Number(g.gasLimit),
      difficulty: `0x${g.difficulty.toString(16)}`,
      nonce: bytesToHex(g.nonce),
      extraData: bytesToHex(g.extraData),
      timestamp: `0x${g.timestamp.toString(16)}`,
    },
    hardforks,
    customHardforks: customHardforks(ruleSet),
    bootstrapNodes: [],
    consensus: { type: 'pow', algorithm: 'ethash', ethash: {} },
  };
}

function createRulesCommon(network: NetworkDefinition, ruleSet: EvmRuleSetName, hardfork: EthHardforkName): Common {
  return new Common({ chain: chainConfig(network, hardfork, ruleSet), hardfork, customCrypto: nativeCrypto });
}

const evmCache = new Map<string, Common>();
const txCache = new Map<string, Common>();

/**
 * The Common that gives @ethereumjs/vm and @ethereumjs/evm the EVM rules of `network` at
 * `blockNumber`. One cached instance per (network, rule set): pass it to `createVM`/`createEVM`
 * and to block/header constructors (they copy it). Do not `setEIPs`/`setHardfork` on it; `copy()` first.
 */
export function evmRulesAt(network: NetworkDefinition, blockNumber: bigint): Common {
  return evmRulesFor(network, evmRuleSetAt(network.forks, blockNumber));
}

export function evmRulesFor(network: NetworkDefinition, ruleSet: EvmRuleSetName): Common {
  // Asked for every block made or imported: by the definition object first, without building the string key.
  const known = evmByDefinition.get(network)?.get(ruleSet);
  if (known !== undefined) return known;
  const key = `${network.name}:${network.chainId}:${ruleSet}`;
  let common = evmCache.get(key);
  if (common === undefined) {
    common = createRulesCommon(network, ruleSet, EVM_HARDFORK[ruleSet]);
    evmCache.set(key, common);
  }
  let bySet = evmByDefinition.get(network);
  if (bySet === undefined) evmByDefinition.set(network, (bySet = new Map()));
  bySet.set(ruleSet, common);
  return common;
}

/** `evmCache`'s entries by definition object and rule set (the same Commons: a definition's name and id are fixed). */
const evmByDefinition = new WeakMap<NetworkDefinition, Map<EvmRuleSetName, Common>>();

/**
 * The Common for decoding, validating and signing transactions at `blockNumber`. Identical to
 * `evmRulesAt` except in ETC's Die Hard window (mainnet 3,000,000–8,771,999), where EIP-155 replay
 * protection is on but the EVM is still pre-Spurious-Dragon: @ethereumjs/tx gates EIP-155 on the
 * name `spuriousDragon`, so transactions get a spuriousDragon Common there. A transaction fixes its
 * signature scheme when constructed, so runTx's habit of re-aligning the tx's own Common copy to
 * the block's hardfork does not undo it.
 */
export function txRulesAt(network: NetworkDefinition, blockNumber: bigint): Common {
  const ruleSet = evmRuleSetAt(network.forks, blockNumber);
  if (ruleSet !== 'dieHard') return evmRulesFor(network, ruleSet);
  const key = `${network.name}:${network.chainId}:dieHard-tx`;
  let common = txCache.get(key);
  if (common === undefined) {
    common = createRulesCommon(network, ruleSet, 'spuriousDragon');
    txCache.set(key, common);
  }
  return common;
}

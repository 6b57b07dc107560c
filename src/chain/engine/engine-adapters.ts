/**
 * Binds the network definitions (src/chain/networks) and consensus rules (src/chain/rules) to the
 * engine's seams (engine-types.ts).
 */
import type { Common } from '@ethereumjs/common';
import { mapPacked } from '../base/packed-map.js';
import type { NetworkDefinition } from '../networks/types.js';
import { blockRewards, expectedDifficulty, headerErrors, type ChainRules as ConsensusRules } from '../rules/index.js';
import { evmRulesAt, txRulesAt } from '../rules/evmRules.js';
import { etcRules } from '../rules/chainRules.js';
import { historyPinFault } from '../rules/history-pins.js';
import type { ChainRules, EngineNetwork } from '../rules/engine-types.js';

export function engineNetworkOf(def: NetworkDefinition): EngineNetwork {
  const g = def.genesis;
  return {
    name: def.name,
    chainId: def.chainId,
    genesisHeader: { ...g.header, ...(g.expectedStateRoot !== undefined ? { stateRoot: g.expectedStateRoot } : {}) },
    loadAlloc: () => g.loadAlloc(),
    ...(g.expectedHash !== undefined ? { expectedGenesisHash: g.expectedHash } : {}),
    ...(def.checkpointing !== undefined ? { checkpointing: def.checkpointing } : {}),
  };
}

export interface RulesAdapterOptions {
  readonly consensus: ConsensusRules;
  readonly commonAt: (number: bigint) => Common;
  readonly txCommonAt?: (number: bigint) => Common;
  /** Local clock for the "not too far in the future" check; omit to skip it (replays, tests). */
  readonly nowSeconds?: () => bigint;
  /**
   * Instant-seal chains (dev and forks, whose blocks only their own node makes): a block's gas limit need not stay
   * within 1/1024 of its parent's, so evm_setBlockGasLimit sets the next block's exactly, as Anvil does.
   */
  readonly freeGasLimit?: boolean;
}

export function engineRules(opts: RulesAdapterOptions): ChainRules {
  const { consensus } = opts;
  return {
    commonAt: opts.commonAt,
    ...(opts.txCommonAt !== undefined ? { txCommonAt: opts.txCommonAt } : {}),
    validateHeader(parent, header) {
      const errors = headerErrors(consensus, header, parent, opts.nowSeconds?.());
      const [first] = opts.freeGasLimit ? errors.filter((e) => e.code !== 'gas-limit-out-of-bounds') : errors;
      return first?.message;
    },
    difficulty: (parent, timestamp) => expectedDifficulty(consensus, parent, timestamp),
    rewards(header, uncles) {
      const r = blockRewards(
        consensus.rewards,
        header.number,
        mapPacked(uncles, (u) => ({ number: u.number })),
      );
      const credits = [{ address: header.coinbase.bytes, amount: r.miner }];
      for (let i = 0; i < uncles.length; i++)
        credits.push({ address: uncles[i]!.coinbase.bytes, amount: r.uncles[i]! });
      return credits;
    },
  };
}

/** ETC rules of a network definition (dev, mordor, etc), the network's pinned blocks (history-pins.ts) first. */
export function etcEngineRules(def: NetworkDefinition, nowSeconds?: () => bigint, freeGasLimit = false): ChainRules {
  const rules = engineRules({
    consensus: etcRules(def),
    commonAt: (n) => evmRulesAt(def, n),
    txCommonAt: (n) => txRulesAt(def, n),
    ...(nowSeconds !== undefined ? { nowSeconds } : {}),
    freeGasLimit,
  });
  return {
    ...rules,
    validateHeader: (parent, header) => historyPinFault(def, header) ?? rules.validateHeader(parent, header),
  };
}

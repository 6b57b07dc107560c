export {
  isActivated,
  isForkActive,
  EVM_RULE_SETS,
  evmRuleSetAt,
  nextEvmRuleSetChange,
  type EvmRuleSetName,
} from './forks.js';
export { evmRulesAt, evmRulesFor, txRulesAt } from './evmRules.js';
export {
  calcDifficulty,
  difficultyBomb,
  bombPeriodReference,
  type DifficultyConfig,
  type DifficultyBombDelay,
  type DifficultyParent,
} from './difficulty.js';
export {
  blockRewards,
  eraOf,
  eraBlockReward,
  FRONTIER_BLOCK_REWARD,
  MAX_UNCLES_PER_BLOCK,
  type RewardConfig,
  type BlockRewards,
  type UncleRef,
} from './rewards.js';
export {
  isGasLimitValid,
  gasLimitBounds,
  nextGasLimit,
  GAS_LIMIT_BOUND_DIVISOR,
  MIN_GAS_LIMIT,
  MAX_GAS_LIMIT,
} from './gasLimit.js';
export { etcRules, ethRules, type ChainRules, type EthConsensusForks } from './chainRules.js';
export {
  headerErrors,
  validateHeader,
  uncleErrors,
  expectedDifficulty,
  hasUncles,
  InvalidHeaderError,
  type HeaderErrorCode,
  type HeaderLike,
  type ParentHeaderLike,
} from './headerValidation.js';
export { etchashEpochLength, etchashEpoch, etchashSeedRounds } from './etchash.js';

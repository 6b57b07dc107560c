/** Mining (JSON-RPC-free): the internal CPU miner, the dev sealing policy, on-demand blocks and the external-miner work API. */
export { Miner } from './miner.js';
export type {
  MinerOptions,
  MinerEvents,
  MinedBlock,
  MineBlocksOptions,
  MiningConsensus,
  MiningPolicy,
} from './types.js';
export { MiningUnavailableError, isMiningUnavailableError } from './errors.js';
export type { MiningWork } from './work-book.js';
export type { MinerChain, MinerPool, MinerPow } from './ports.js';
export { searchNonce, type NonceSearchOptions, type SealTarget } from './nonce-search.js';

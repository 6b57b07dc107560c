/** The miner's public shapes: its options, what it reports per block, and its events. */
import type { Block } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { MinerChain, MinerPool, MinerPow } from './ports.js';

export type MiningConsensus = 'pow' | 'instant' | 'none';
export type MiningPolicy = 'continuous' | 'dev';

export interface MinerOptions {
  readonly chain: MinerChain;
  readonly pool: MinerPool;
  /**
   * `pow`: Ethash seals. `instant`: zero seals made at once (dev policy only); no external-miner API. `none`: a chain
   * without proof of work (NoProof test mode): only `mineBlocks` works.
   */
  readonly consensus: MiningConsensus;
  /** Required when `consensus` is `pow`. */
  readonly pow?: MinerPow;
  /** Who receives block rewards (20 bytes). */
  readonly coinbase: Uint8Array;
  /** Header extra data (at most 32 bytes); default empty. */
  readonly extraData?: Uint8Array;
  /** What `start()` runs: `continuous` (default) or the dev network's `dev` policy. */
  readonly policy?: MiningPolicy;
  /** Dev policy: seconds between blocks when no transaction is pending; 0 (default) = only when there is work. */
  readonly blockTimeSeconds?: number;
  /** Prepared eth_getWork templates kept for late solutions (default 30). */
  readonly preparedWorkLimit?: number;
  /** An external miner counts as active, and its hash-rate report as current, for this long (default 30 s). */
  readonly activityTimeoutMs?: number;
  /** How long one nonce-search chunk runs before yielding to the event loop (default 10 ms). */
  readonly chunkMs?: number;
  /** Millisecond clock (default Date.now); tests inject one. */
  readonly now?: () => number;
}

/** A block this miner sealed and imported. */
export interface MinedBlock {
  readonly block: Block;
  /** The pool transactions it included, in block order. */
  readonly transactions: readonly TypedTransaction[];
  /** Candidates that did not go in, with the reason (test_mineBlocks reports these). */
  readonly rejected: readonly { readonly tx: TypedTransaction; readonly reason: string }[];
  /** Time this miner spent assembling and sealing the block (in bulk: its share of the run, storing included); undefined for work sealed by an external miner. */
  readonly sealMs?: number;
}

export interface MineBlocksOptions {
  /** Called once per block for its timestamp (test_modifyTimestamp); undefined = max(now, parent + 1). */
  readonly timestamp?: () => bigint | undefined;
  /** Include pool transactions (default true). */
  readonly withTransactions?: boolean;
  /** Parent of the first block (default: the head); each later block builds on the previous one. */
  readonly parentHash?: Uint8Array;
  /**
   * Return the mined blocks (default true). False: resolve to an empty list once all are mined, so a long run
   * (qa_mineBlocks(10000)) does not hold every block it made until it ends; `sealed` still fires per block.
   */
  readonly collect?: boolean;
  /** Blocks per database batch of a bulk run (default BULK_CHUNK, assembly/empty-chunk.ts). */
  readonly chunkSize?: number;
  /**
   * Asked between blocks (between chunks of a bulk run): true ends the run there, with the blocks made so far kept
   * (the request that ordered it has lost its client).
   */
  readonly cancelled?: () => boolean;
}

export interface MinerEvents {
  /** A block was sealed and imported (by any of the three paths). */
  sealed: [mined: MinedBlock];
  /** A background failure (the CPU miner or dev policy keeps going); without a listener it becomes a process warning. */
  failure: [error: Error];
}

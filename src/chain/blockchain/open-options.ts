/** How a `Blockchain` is opened: its data directory, network, rules and seal checks, caches and state retention. */
import type { ConsoleListener } from '../assembly/assembler.js';
import type { CacheLimits } from '../base/cache-limits.js';
import type { ProgressLogger } from '../base/progress-log.js';
import type { ForkUpstream } from '../fork/upstream.js';
import type { NetworkDefinition } from '../networks/types.js';
import type { ChainRules, EngineNetwork, SealVerifier } from '../rules/engine-types.js';
import type { StateRetentionOptions } from '../state/retention.js';
import type { CallPool } from '../view/call-pool.js';
import type { PruningOptions } from './pruner.js';

export interface OpenOptions {
  /** The node's data directory; the chain database lives in `<dataDir>/chaindata`. */
  readonly dataDir: string;
  readonly network: EngineNetwork;
  readonly rules: ChainRules;
  /** Required unless `noProof`. */
  readonly seal?: SealVerifier;
  /** Networks/test configurations without proof of work: seals are not checked. */
  readonly noProof?: boolean;
  /** Run every transaction through the EVM, plain transfers included (default false: see exec/plain-transfers.ts). Tests compare the two. */
  readonly evmOnly?: boolean;
  /** The miner assembles on a flat in-memory state over the trie (exec/flat-state.ts); the dev chain's choice. */
  readonly flatState?: boolean;
  /** Dev: the console.log lines of each transaction the miner includes (exec/console-watch.ts). */
  readonly console?: ConsoleListener;
  /** Bounds of the in-memory caches and of LevelDB's cache and write buffer; unset ones take DEFAULT_CACHE_LIMITS. */
  readonly caches?: Partial<CacheLimits>;
  /** Fork mode: the chain starts on this upstream's block and reads its state from there (fork/). */
  readonly fork?: ForkUpstream;
  /**
   * Queue each block's batch and go on once it is the in-memory head (db/write-behind.ts): a crash may lose the
   * unwritten tail of the chain, never its consistency. Default false: an import returns once the block is stored.
   */
  readonly writeBehind?: boolean;
  /** Which states are kept (`--gcmode` and its window; state/retention.ts). Default: archive, every state. */
  readonly retention?: StateRetentionOptions;
  /** Where long background work (the flat state's build) logs its progress; default: silent. */
  readonly log?: ProgressLogger;
  /** Full mode: when pruning cycles run, how long their slices are, where their figures go (blockchain/pruner.ts). */
  readonly pruning?: PruningOptions;
  /**
   * Re-execute every block imported on its own assembly's word with @ethereumjs/vm on a worker
   * (exec/seal-checker.ts): at most `lag` unverified blocks ahead; `onError` hears of checks that could not run.
   * Default: none (a forked chain's partial state cannot be read by node hash, so it never gets one).
   */
  readonly sealChecks?: {
    readonly lag: number;
    /** The worker builds its rules from the definition, as the call workers do (rules/evmRules.ts). */
    readonly network: NetworkDefinition;
    readonly onError?: (message: string) => void;
  };
  /** Worker threads for message calls (view/call-pool.ts); the opener closes it. Default: calls on this thread. */
  readonly callPool?: CallPool;
}

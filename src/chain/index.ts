/**
 * The engine's public face: everything the rest of src/ (handlers, p2p, node, MCP, server, metrics, cli) may import
 * from src/chain/, and nothing else. test/architecture/layers.test.ts refuses an import from outside chain/ that
 * goes past this file, and checks chain/'s folders against the table of inner layers in ARCHITECTURE.md.
 * scripts/chain-face-codemod.ts rewrites imports of chain/ internals to this file and adds any name it lacks
 * under a marked section at the end.
 */

// The engine, how it is opened, and the networks it runs
export { ChainEngine, type EngineOptions } from './engine/engine.js';
export type { ConsoleListener } from './assembly/assembler.js';
export type { EngineMemo } from './engine/engine-memo.js';
export { etcEngineRules } from './engine/engine-adapters.js';
export { SEAL_MODES, type SealMode } from './engine/seal-mode.js';
export { DEFAULT_CACHE_LIMITS, type CacheLimits } from './base/cache-limits.js';
export { DatabaseLockedError } from './db/chain-db.js';
export { chainDbTableStats, type TablePart, type TableStats } from './db/table-stats.js';
export {
  NETWORK_NAMES,
  devWithAccounts,
  devWithCheckpointing,
  getNetwork,
  type NetworkDefinition,
} from './networks/index.js';
export { crc32, crc32Portable, forkBlocksOf, ForkIdTable, type ForkId } from './rules/fork-id.js';
export { forkConfigsOf, type ForkConfig, type ForkConfigs } from './rules/fork-config.js';
export { PRECOMPILES_ADDED, inPrecompileRange, precompilesOf, type Precompile } from './rules/precompiles.js';
export type { NetworkName, EtcForkName, EtcForkSchedule } from './networks/types.js';
export {
  ETC_FORK_NAMES,
  editDistance,
  ForkOverrideError,
  forkNameOf,
  forksAhead,
  movedForksPassed,
  parseForkBlock,
  withForkOverrides,
  type ForkAhead,
  type ForkOverrides,
  type MovedFork,
} from './networks/overrides.js';
export { DEV_ACCOUNTS, DEV_ACCOUNT_BALANCE, DEV_MNEMONIC, type DevAccount } from './networks/devAccounts.js';
export {
  ForkUpstreamError,
  forkUpstreamErrorIn,
  type ForkUpstream,
  type UpstreamHeader,
  type UpstreamProof,
} from './fork/upstream.js';

// Reads of the stored chain and its state, and the engine's events
export type { BlockRef } from './view/chain-view.js';
export type { BlockImportedEvent, ReorgEvent } from './view/chain-events.js';
export type { StateView } from './state/state-reader.js';
export { StateNotHeldError } from './state/snap-base.js';
export {
  GC_MODES,
  StateNotKeptError,
  StateRetention,
  type GcMode,
  type StateRetentionOptions,
} from './state/retention.js';
export {
  PRUNED_DATADIR_MESSAGE,
  type PruneCycleFigures,
  type PruneProgress,
  type PruningOptions,
} from './blockchain/pruner.js';
export { encodeConsensusReceipt, type TxReceipt } from './codec/receipts.js';
export { BlockImportError } from './import/import-error.js';

// eth_call and its kin: messages, overrides, results, the time limit
export type { CallAccessListEntry, CallMessage, CallOverrides, CallResult } from './exec/call.js';
export { CallTimeoutError } from './exec/call-deadline.js';
export { CallPoolBusyError, CallWorkerDiedError } from './view/call-pool.js';
export {
  InvalidOverrideError,
  blockWithOverrides,
  hasBlockOverrides,
  type AccountOverride,
  type BlockEnvOverrides,
  writeStateOverrides,
} from './exec/overrides.js';

// Logs, filters and subscriptions
export type { Log, LogCriteria, LogQuery, TopicCriterion } from './logs/types.js';
export { HistoryNotHeldError, LimitExceededError, UnknownBlockError } from './logs/errors.js';
export { FilterLimitError, FilterNotFoundError, FilterOverflowError } from './filters/errors.js';
export type { Subscription } from './filters/filter-manager.js';
export { randomId } from './filters/ids.js';

// An account's history, and history held below a snap sync's pivot
export { AccountRangeTooWideError } from './history/account-history.js';
export type { AccountTransaction } from './history/index.js';
export { historyNotHeldMessage, type BackfilledBlock, type HistoryFrontier } from './history/backfill-store.js';
export { receiptsOfBlock, type ConsensusReceipt } from './history/peer-receipts.js';

// Tracing (debug_trace*, trace_*, ots_*)
export {
  JsonText,
  TraceBusyError,
  TraceLimitError,
  TraceReplayError,
  TraceSlots,
  framesOf,
  parityErrorOf,
  traceBlock,
  traceCall,
  traceTransaction,
  type CallFrameJson,
  type OtsTraceJson,
  type OpcodeGasJson,
  type TraceCap,
  type TraceLimits,
  type TraceOptions,
  type TraceResult,
  type TxTrace,
  SimulateError,
  simulate,
  type SimulateOptions,
  type SimulateStop,
  type SimulatedBlockEnv,
  type SimulatedBlockInput,
  type SimulatedBlockResult,
  type SimulatedCall,
  type SimulatedCallResult,
} from './trace/index.js';

// The pool and the miner
export {
  FEE_MARKET_REFUSAL,
  isTxRejectedError,
  POOL_ORDERS,
  type PoolOrder,
  type PooledTx,
  type SubmitResult,
  type TxPool,
} from './txpool/index.js';
export type { TxAddedEvent, TxDroppedEvent } from './txpool/events.js';
export { isMiningUnavailableError, type MinedBlock, type Miner } from './miner/index.js';

// Keys and signing (personal_*, eth_sign*, the dev accounts)
export {
  AccountError,
  AccountManager,
  devAccountsOf,
  LIGHT_SCRYPT,
  keystoreDirOf,
  recoverPersonalMessageSigner,
  type AccountErrorKind,
  type AccountSigner,
  type TypedDataPayload,
  type UnsignedLegacyTx,
} from './accounts/index.js';
export { generatePrivateKey } from './accounts/keys.js';

// ECIP-1097 checkpoints
export {
  checkpointOf,
  recoverSigner,
  signCheckpoint,
  signatureFromBytes,
  signatureToBytes,
  type Checkpoint,
  type CheckpointSignature,
  type Federation,
} from './checkpointing/index.js';

// Dev-node controls (anvil_*, evm_*) and the retesteth test mode (test_*)
export { devControlsOf, type DevControls } from './dev/dev-controls.js';
export {
  dumpDevState,
  loadDevState,
  StateDumpError,
  type DevStateDump,
} from './dev/state-dump.js';
export { ReorgDepthError, type ReplacementTx } from './dev/reorg.js';
export type { Impersonation } from './dev/impersonation.js';
export type { StateEdit } from './dev/state-edits.js';
export {
  ChainParamsError,
  parseChainParams,
  type ChainParamsInput,
  type TestChainSpec,
} from './testing/chain-params.js';
export { logsHash } from './testing/log-hash.js';
export { PreimageBook, fixedSlotOf, preimageBookOf } from './testing/preimage-book.js';
export { TestQuantityError, testQuantity, testQuantityNumber } from './testing/quantity.js';

// Block files (era1 and RLP export and import)
export { exportHistory } from './archive/history-export.js';
export { importHistory } from './archive/history-import.js';

// What p2p's snap and eth serving read and check: RLP views, ranges of the state trie and their proofs
export { encodeRlp, type RlpItem } from './codec/rlp-encode.js';
export { decodeRlpList, decodeRlpViews } from './codec/rlp-views.js';
export { serializedBlockLength } from './codec/tx-bytes.js';
export { accountTrieOf, flatAccountOf, stateRange, storageTrieOf, trieRange } from './state/trie-range.js';
export { buildRangeTrie, type RangeEntry } from './view/snap-store.js';
export { type ProvenRange, verifyRangeWithProof } from './state/range-proof.js';

// Helpers the engine shares with the rest of the node
export { keccak256 } from './base/crypto.js';
export { fileProblem } from './base/file-problem.js';
export { KeyedLock } from './base/keyed-lock.js';
export { ProgressLog } from './base/progress-log.js';
export { Lru } from './db/lru.js';
export { PLATFORM_NICE, lowerPlatformThreads } from './workers/thread-priority.js';

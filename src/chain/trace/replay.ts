/**
 * The tracing engine's API: a stored block's transactions replayed from its parent's state through the same
 * runner and rules as import (exec/block-runner.ts: the block's Common, its header as environment, its
 * ancestors as BLOCKHASH source), each traced transaction under a fresh tracer; and a message call traced on a
 * block's state. Every transaction goes through the EVM (no plain-transfer shortcut), so every one has frames.
 * Nothing is written: the replayed state is dropped.
 */
import type { Block, BlockHeader } from '@ethereumjs/block';
import type { Common, StateManagerInterface } from '@ethereumjs/common';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import { type TypedTransaction, createLegacyTx } from '@ethereumjs/tx';
import { Address, createContractAddress } from '@ethereumjs/util';
import { createVM, runTx } from '@ethereumjs/vm';
import { BlockRunner } from '../exec/block-runner.js';
import { type CallMessage, rejectionMessage } from '../exec/call.js';
import { jumpAnalysisCacheInstalled } from '../exec/jump-analysis-cache.js';
import { takeConsole, watchConsole } from '../exec/console-watch.js';
import type { RewardCredit } from '../rules/engine-types.js';
import { type OpenedState, openState } from '../state/state-view.js';
import type { TrieNodeStore } from '../state/trie-db.js';
import { TraceBudget } from './budget.js';
import { continued, rebuiltState } from './reexec.js';
import { deadlineOf, timedOut, type Deadline } from './hooks.js';
import { leaveStateReverting, takeState } from './replay-states.js';
import { runTraced } from './run-traced.js';
import type { TraceResult } from './tracers.js';
import { TraceLimitError, TraceReplayError, type TraceOptions, type TxStart } from './types.js';

/** What the engine reads from the chain (`Blockchain` is one). */
export interface TraceChain {
  getBlock(ref: Uint8Array | bigint): Promise<Block | undefined>;
  getHeader(hash: Uint8Array): Promise<BlockHeader | undefined>;
  /** Where a canonical transaction is (its block's hash, its index there). */
  getTransactionLocation(
    txHash: Uint8Array,
  ): Promise<{ readonly blockHash: Uint8Array; readonly index: number } | undefined>;
  commonAt(number: bigint): Common;
  replayBase(header: BlockHeader): {
    readonly store: TrieNodeStore;
    readonly ancestors: EVMMockBlockchainInterface;
    readonly stateRoot: Uint8Array;
  };
  /**
   * The kept state a replay on the state after `header` starts from (`header` itself when kept); throws
   * StateNotHeldError (state/snap-base.ts) for a block whose state this node never had, StateNotKeptError
   * (state/retention.ts) for one further than `reexec` blocks above a kept state.
   */
  replayStart(header: BlockHeader): Promise<BlockHeader>;
  /** False for a block the chain does not execute (an ECIP-1097 checkpoint block). */
  executes(header: BlockHeader): boolean;
  rewardsOf(block: Block): RewardCredit[];
}

export { TraceReplayError };

/** One transaction's trace in a block. */
export interface TxTrace {
  readonly txHash: Uint8Array;
  readonly result: TraceResult;
}

/** The trace of one stored transaction; undefined when the node does not know it. */
export async function traceTransaction(
  chain: TraceChain,
  txHash: Uint8Array,
  opts: TraceOptions,
): Promise<TraceResult | undefined> {
  // The location and the block, not getTransaction's lookup, which reads the block's receipts too.
  const at = await chain.getTransactionLocation(txHash);
  const block = at === undefined ? undefined : await chain.getBlock(at.blockHash);
  if (at === undefined || block === undefined) return undefined;
  const [trace] = await replay(chain, block, opts, at.index);
  return trace?.result;
}

/**
 * Every transaction of a block, traced in order (`block` by hash, or a decoded block whose parent is stored, as
 * debug_traceBlock's raw RLP gives); undefined when the hash is unknown.
 */
export async function traceBlock(
  chain: TraceChain,
  block: Uint8Array | Block,
  opts: TraceOptions,
): Promise<TxTrace[] | undefined> {
  const resolved = block instanceof Uint8Array ? await chain.getBlock(block) : block;
  if (resolved === undefined) return undefined;
  return replay(chain, resolved, opts, undefined);
}

/**
 * Options of a traced call. `prepareState` runs on the block's state before the call (state overrides: it may
 * write accounts, code and storage; nothing it writes is kept).
 */
export interface TraceCallOptions extends TraceOptions {
  readonly prepareState?: (state: StateManagerInterface) => Promise<void>;
  /** Dev: hears the lines of the call's console.log calls (exec/console-watch.ts), when it made any. */
  readonly onConsole?: (lines: readonly string[]) => void;
}

/** A message call traced on the state after `block`, with that block as its environment (as eth_call runs). */
export async function traceCall(
  chain: TraceChain,
  msg: CallMessage,
  block: Block,
  opts: TraceCallOptions,
): Promise<TraceResult> {
  const deadline = deadlineOf(opts.limits);
  const budget = new TraceBudget(opts.limits?.maxResultBytes ?? 0);
  const rebuilt = await rebuiltState(chain, block.header, deadline, budget);
  const common = chain.commonAt(block.header.number);
  const { store, ancestors, stateRoot } = chain.replayBase(block.header);
  const opened =
    rebuilt === undefined ? replayState(store, common, stateRoot) : continued(rebuilt, store, common, stateRoot);
  await opts.prepareState?.(opened.stateManager);
  await jumpAnalysisCacheInstalled;
  const vm = await createVM({ common: common.copy(), stateManager: opened.stateManager, blockchain: ancestors });
  if (opts.onConsole !== undefined) watchConsole(vm.evm);
  const sender = new Address(msg.from ?? new Uint8Array(20));
  const account = await opened.stateManager.getAccount(sender);
  const tx = createLegacyTx(
    {
      nonce: account?.nonce ?? 0n,
      to: msg.to,
      data: msg.data,
      value: msg.value ?? 0n,
      gasLimit: msg.gas ?? block.header.gasLimit,
      gasPrice: msg.gasPrice ?? 0n,
    },
    { common, freeze: false },
  );
  tx.getSenderAddress = () => sender;
  return runTraced(vm, txStart(tx, block), opts, deadline, budget, async () => {
    let result: Awaited<ReturnType<typeof runTx>>;
    try {
      result = await runTx(vm, { tx, block, skipNonce: true, skipBalance: true, skipBlockGasLimitValidation: true });
      const lines = opts.onConsole !== undefined ? takeConsole(vm.evm) : undefined;
      if (lines !== undefined) opts.onConsole?.(lines);
    } catch (err) {
      // runTx refusing the call (gas below the intrinsic gas, a sender with code) is an answer, as eth_call gives
      // it; a cap the trace passed is thrown by runTraced first.
      if (err instanceof TraceLimitError) throw err;
      throw new TraceReplayError(rejectionMessage(err));
    }
    return { gasUsed: result.totalGasSpent, failed: result.execResult.exceptionError !== undefined };
  });
}

function txStart(tx: TypedTransaction, block: Block): Omit<TxStart, 'state'> {
  const from = tx.getSenderAddress();
  return {
    from: from.bytes,
    to: tx.to?.bytes,
    created: tx.to === undefined ? createContractAddress(from, tx.nonce).bytes : undefined,
    value: tx.value,
    gasLimit: tx.gasLimit,
    gasPrice: 'gasPrice' in tx ? tx.gasPrice : tx.maxFeePerGas,
    input: tx.data,
    coinbase: block.header.coinbase.bytes,
  };
}

/** Replays `block` on its parent's state: traces transaction `only`, or every one when undefined. */
async function replay(
  chain: TraceChain,
  block: Block,
  opts: TraceOptions,
  only: number | undefined,
): Promise<TxTrace[]> {
  if (block.header.number === 0n) throw new TraceReplayError('genesis is not traceable');
  const parent = await chain.getHeader(block.header.parentHash);
  if (parent === undefined) throw new TraceReplayError(`parent ${hex(block.header.parentHash)} not found`);
  const deadline = deadlineOf(opts.limits);
  // One budget for the whole request: a block's traces are answered together, with any re-execution before them.
  const budget = new TraceBudget(opts.limits?.maxResultBytes ?? 0);
  // A parent state not kept is rebuilt from a kept one below (or refused); one below a snap-sync base was never
  // downloaded: either way the answer says so, not "missing node".
  const rebuilt = await rebuiltState(chain, parent, deadline, budget);
  const common = chain.commonAt(block.header.number);
  const { store, ancestors, stateRoot } = chain.replayBase(parent);
  let state: OpenedState;
  if (rebuilt !== undefined) state = continued(rebuilt, store, common, stateRoot);
  else {
    let kept = takeState(chain, stateRoot, common, store);
    if (kept instanceof Promise) kept = await kept;
    state = kept ?? replayState(store, common, stateRoot);
  }
  const runner = await BlockRunner.start({
    store,
    common,
    parentStateRoot: stateRoot,
    envBlock: block,
    ancestors,
    plainTransfers: false,
    // The lean frames of calls and sealing (exec/call-frames.ts); the generic path, the reference, keeps the library's.
    leanEvm: opts.generic !== true,
    state,
  });
  const vm = await runner.vmForTracing();
  const last = only ?? block.transactions.length - 1;
  const traces: TxTrace[] = [];
  for (let i = 0; i <= last; i++) {
    const tx = block.transactions[i];
    checkDeadline(deadline);
    if (only !== undefined && i < only) {
      const outcome = await runner.apply(tx);
      if (!outcome.ok) throw new TraceReplayError(`transaction ${i} cannot be replayed: ${outcome.reason}`);
      continue;
    }
    const result = await runTraced(vm, txStart(tx, block), opts, deadline, budget, async () => {
      const outcome = await runner.apply(tx);
      if (!outcome.ok) throw new TraceReplayError(`transaction ${i} cannot be replayed: ${outcome.reason}`);
      return { gasUsed: outcome.receipt.gasUsed, failed: outcome.receipt.status === 0 };
    });
    traces.push({ txHash: tx.hash(), result });
  }
  // The revert waits until the answer is written (replay-states.ts).
  if (rebuilt === undefined) leaveStateReverting(chain, stateRoot, common, store, () => runner.discard());
  return traces;
}

/**
 * A state opened for a replay, which is never stored: it notes no written keys (state/written-keys.ts: those name
 * what blocks and edits wrote) and, given to the runner, lists no flat-state changes (state/change-list.ts: a block
 * runner lists them on a state it opens itself, for a head move). A replay's state is kept for the next replay on
 * the same parent (replay-states.ts), so a listing begun once went on for every trace after it: a copy of each
 * account's encoding before each write, a tenth of a callTracer trace's engine time (bench/trace-engine.ts profiled).
 * Its checkpoints cover its caches only (ChainStateManager.checkpointCachesOnly): every write of a replay goes there.
 */
function replayState(store: TrieNodeStore, common: Common, stateRoot: Uint8Array): OpenedState {
  const opened = openState(store, common, stateRoot, store.trieCaches, null);
  opened.stateManager.checkpointCachesOnly();
  return opened;
}

function checkDeadline(deadline: Deadline | undefined): void {
  if (deadline !== undefined && performance.now() > deadline.at) throw timedOut(deadline);
}

const hex = (b: Uint8Array): string => `0x${Buffer.from(b).toString('hex')}`;

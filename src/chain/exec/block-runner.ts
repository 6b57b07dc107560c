/**
 * Runs transactions on a parent state under one block header: the shared core of block import (every
 * transaction must apply) and block assembly (transactions that do not apply are skipped with a reason).
 *
 * At most one VM (built when a transaction needs the EVM, and kept with its state for a next block that continues
 * on it) and one Common per block; `runTx` per transaction (not BlockBuilder, which rebuilds the block
 * on every addition); the state manager holds an outer checkpoint so its caches reach the trie once,
 * at `finish`. Rewards come from the chain rules, not from the VM.
 */
import type { Block } from '@ethereumjs/block';
import type { Common, StateManagerInterface } from '@ethereumjs/common';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import type { TypedTransaction } from '@ethereumjs/tx';
import { createVM, runTx, type VM } from '@ethereumjs/vm';
import { mapPacked } from '../base/packed-map.js';
import type { RewardCredit } from '../rules/engine-types.js';
import { openState, type OpenedState } from '../state/state-view.js';
import type { BufferedTrieDB, TrieNodeStore } from '../state/trie-db.js';
import { callDeadlineInstalled } from './call-deadline.js';
import { reachedAddressesInstalled, takeReached, watchReached } from './reached-addresses.js';
import { creditRewards } from './credit-rewards.js';
import type { FlatChanges } from '../db/flat-changes.js';
import { FlatState, flatStateOver } from './flat-state.js';
import { jumpAnalysisCacheInstalled } from './jump-analysis-cache.js';
import { leanFrames } from './call-frames.js';
import { dropConsole, takeConsole, watchConsole } from './console-watch.js';
import { PlainTransferLedger, plainTransfersApply } from './plain-transfers.js';
import { combineBlooms, receiptsRoot, type TxReceipt } from '../codec/receipts.js';
import { withoutSenderCodeCheck } from './impersonated-run.js';
import { impersonatedSenderOf, installFastSenderAddress } from './sender-address.js';
import { installFastBloomAdd } from './fast-bloom.js';

// runTx asks every transaction for its sender; see sender-address.ts.
installFastSenderAddress();
// runTx builds every transaction's logs bloom; see fast-bloom.ts.
installFastBloomAdd();

export interface BlockRunnerInput {
  readonly store: TrieNodeStore;
  /** The block's shared Common (see shared-common.ts). */
  readonly common: Common;
  readonly parentStateRoot: Uint8Array;
  /** The block whose header supplies the execution environment (coinbase, number, time, difficulty, gas limit). */
  readonly envBlock: Block;
  /** BLOCKHASH source: the ancestors of this block, which need not be canonical. */
  readonly ancestors: EVMMockBlockchainInterface;
  /** Apply plain value transfers without the EVM where the rules allow (default true). */
  readonly plainTransfers?: boolean;
  /**
   * A state already at `parentStateRoot` with the same rules: the one the previous block of a bulk run (or the
   * dev miner's previous block) finished on. The runner continues on it instead of opening the trie again (its
   * caches stay warm, and so does its VM if it had one), and its buffer then holds the trie nodes of every block
   * run on it unless the caller emptied it in between.
   */
  readonly state?: OpenedState;
  /**
   * List the block's flat-state changes on a given `state` too (as on a state opened for the block): an import
   * continuing on the previous block's state, whose flat state is at that block's root when this one finishes.
   */
  readonly listFlatChanges?: boolean;
  /**
   * Execute on the flat state over the opened one (flat-state.ts: accounts as objects, the trie written once at
   * the root): the dev miner's assembly. Default false, the state manager itself (imports, other networks).
   */
  readonly flat?: boolean;
  /**
   * Give the VM the call VMs' narrower EVM paths (`leanFrames`, call-frames.ts: CALL frames without copies of each
   * frame's message and run state, memory words and storage keys without hex round trips, journal keys from hexKey):
   * the dev miner's assembly. Default false, the library's own (imports, traces, other networks).
   */
  readonly leanEvm?: boolean;
  /** Decode the transactions' console.log calls (console-watch.ts): the dev chain's assembly and traceCall. */
  readonly console?: boolean;
}

/** `console`: the lines of the transaction's console.log calls, when it made any (`BlockRunnerInput.console`). */
export type ApplyOutcome =
  | { ok: true; receipt: TxReceipt; console?: readonly string[] }
  | { ok: false; reason: string };

export interface RunnerResult {
  readonly receipts: TxReceipt[];
  readonly gasUsed: bigint;
  readonly stateRoot: Uint8Array;
  readonly receiptsRoot: Uint8Array;
  readonly logsBloom: Uint8Array;
  /** State trie nodes written by the block, to go into its batch (with `state` given: by every block run on it). */
  readonly stateWrites: BufferedTrieDB;
  /** The state the block finished on: the next block of a bulk run may continue on it (`BlockRunnerInput.state`). */
  readonly state?: OpenedState;
  /** The flat-state changes as the flat execution recorded them (db/flat-changes.ts), when it ran on one. */
  readonly flatChanges?: FlatChanges;
}

/**
 * The VM built over an opened state, kept for the next block that continues on that state (a VM is ~0.2 ms to
 * build). Its BLOCKHASH source forwards to the current block's ancestors; its Common is the block's, so it is
 * reused only under the very same (shared) Common.
 */
interface StateVm {
  readonly common: Common;
  readonly leanEvm: boolean;
  readonly console: boolean;
  readonly vm: Promise<VM>;
  ancestors: EVMMockBlockchainInterface;
}
const stateVms = new WeakMap<StateManagerInterface, StateVm>();

export class BlockRunner {
  private readonly receipts: TxReceipt[] = [];
  private gasUsed = 0n;
  private vm: Promise<VM> | undefined;

  private constructor(
    private readonly input: BlockRunnerInput,
    private readonly opened: OpenedState,
    /** What transactions run on: the opened state's manager, or the flat state over it. */
    private readonly sm: StateManagerInterface,
    /** Plain value transfers skip the EVM (see plain-transfers.ts); undefined where the rules do not allow it. */
    private readonly transfers: PlainTransferLedger | undefined,
  ) {}

  static async start(input: BlockRunnerInput): Promise<BlockRunner> {
    const opened = input.state ?? openState(input.store, input.common, input.parentStateRoot);
    const sm = input.flat === true ? flatStateOver(opened.stateManager) : opened.stateManager;
    if (sm instanceof FlatState) sm.beginFlatChanges(input.parentStateRoot);
    // A state opened for this block: its changes are listed for the flat table's head move (state/change-list.ts).
    else if (listsFlatChanges(input)) opened.stateManager.beginFlatChanges(input.parentStateRoot);
    await sm.checkpoint();
    const transfers =
      input.plainTransfers !== false && plainTransfersApply(input.common)
        ? new PlainTransferLedger(sm, input.envBlock.header.coinbase)
        : undefined;
    return new BlockRunner(input, opened, sm, transfers);
  }

  /** Built on first need: a block of plain transfers (or an empty one) never runs the EVM. */
  private vmOnce(): Promise<VM> {
    if (this.vm !== undefined) return this.vm;
    const kept = stateVms.get(this.sm);
    const lean = this.input.leanEvm === true;
    const watch = this.input.console === true;
    if (kept !== undefined && kept.common === this.input.common && kept.leanEvm === lean && kept.console === watch) {
      kept.ancestors = this.input.ancestors;
      this.vm = kept.vm;
      return this.vm;
    }
    const forwarding: EVMMockBlockchainInterface = {
      getBlock: (n) => entry.ancestors.getBlock(n),
      putBlock: async () => {},
      shallowCopy: () => forwarding,
    };
    const entry: StateVm = {
      common: this.input.common,
      leanEvm: lean,
      console: watch,
      ancestors: this.input.ancestors,
      // The interpreter's wrappers in place first (call-deadline.ts also runs await-free steps without a promise).
      vm: Promise.all([jumpAnalysisCacheInstalled, callDeadlineInstalled, reachedAddressesInstalled]).then(async () => {
        const vm = await createVM({
          // A fresh shallow copy: the EVM subscribes to the Common's events, which must not pile up on the shared one.
          common: this.input.common.copy(),
          stateManager: this.sm,
          blockchain: forwarding,
        });
        if (lean) await leanFrames(vm.evm);
        // After leanFrames: the watch wraps whichever frame the EVM runs.
        if (watch) watchConsole(vm.evm);
        return vm;
      }),
    };
    stateVms.set(this.sm, entry);
    this.vm = entry.vm;
    return this.vm;
  }

  /** The VM transactions run on: tracing (trace/replay.ts) listens to its EVM's events around one `apply`. */
  vmForTracing(): Promise<VM> {
    return this.vmOnce();
  }

  /**
   * Undoes every transaction applied, leaving the state at the parent's with its caches (and VM) warm: a trace's
   * replay hands it on to the next replay on the same parent state (trace/replay-states.ts).
   */
  async discard(): Promise<OpenedState> {
    if (this.transfers !== undefined) await this.transfers.flush();
    await this.sm.revert();
    return this.opened;
  }

  get cumulativeGasUsed(): bigint {
    return this.gasUsed;
  }

  /** Applies one transaction; on failure the state is untouched and the reason says why. */
  async apply(tx: TypedTransaction): Promise<ApplyOutcome> {
    const header = this.input.envBlock.header;
    if (this.gasUsed + tx.gasLimit > header.gasLimit) {
      return {
        ok: false,
        reason: `transaction gas limit ${tx.gasLimit} exceeds the gas left in the block (${header.gasLimit - this.gasUsed})`,
      };
    }
    // No await where there is no ledger (replays for traces): each is a turn of the microtasks.
    if (this.transfers !== undefined) {
      const transfer = await this.transfers.tryApply(tx);
      if (transfer !== undefined) return this.record(tx, transfer.gasUsed, transfer.sender.bytes);
      await this.transfers.flush();
    }
    let result: Awaited<ReturnType<typeof runTx>>;
    let reached: Uint8Array[];
    const vm = await this.vmOnce();
    try {
      const run = () => runTx(vm, { tx, block: this.input.envBlock, blockGasUsed: this.gasUsed });
      // The dev chain's impersonated senders skip EIP-3607 (impersonated-run.ts), as Anvil's do.
      const impersonated = impersonatedSenderOf(tx);
      watchReached(vm.evm);
      result = await (impersonated === undefined ? run() : withoutSenderCodeCheck(vm.stateManager, impersonated, run));
    } catch (err) {
      if (this.input.console === true) dropConsole(vm.evm);
      return { ok: false, reason: reasonOf(err) };
    } finally {
      reached = takeReached(vm.evm);
    }
    this.gasUsed += result.totalGasSpent;
    const r = result.receipt;
    const receipt: TxReceipt = {
      type: tx.type,
      ...('status' in r ? { status: r.status } : { stateRoot: (r as { stateRoot: Uint8Array }).stateRoot }),
      cumulativeGasUsed: r.cumulativeBlockGasUsed,
      gasUsed: result.totalGasSpent,
      logs: receiptLogs(r.logs),
      logsBloom: r.bitvector,
      from: tx.getSenderAddress().bytes,
      ...(result.createdAddress !== undefined ? { contractAddress: result.createdAddress.bytes } : {}),
      ...(reached.length > 0 ? { reached } : {}),
    };
    this.receipts.push(receipt);
    const lines = this.input.console === true ? takeConsole(vm.evm) : undefined;
    return lines === undefined ? { ok: true, receipt } : { ok: true, receipt, console: lines };
  }

  /** The receipt of a transfer the ledger applied: success, no logs. */
  private record(tx: TypedTransaction, gasUsed: bigint, from: Uint8Array): ApplyOutcome {
    this.gasUsed += gasUsed;
    const receipt: TxReceipt = {
      type: tx.type,
      status: 1,
      cumulativeGasUsed: this.gasUsed,
      gasUsed,
      logs: [],
      logsBloom: new Uint8Array(256),
      from,
    };
    this.receipts.push(receipt);
    return { ok: true, receipt };
  }

  /** Credits rewards, flushes the state caches into the trie once, and computes the block's roots. */
  async finish(rewards: readonly RewardCredit[]): Promise<RunnerResult> {
    await this.transfers?.flush();
    const sm = this.sm;
    await creditRewards(sm, rewards);
    await sm.commit();
    const stateRoot = await sm.getStateRoot();
    const flatChanges =
      sm instanceof FlatState
        ? sm.takeFlatChanges(stateRoot)
        : listsFlatChanges(this.input)
          ? this.opened.stateManager.takeFlatChanges(stateRoot)
          : undefined;
    return {
      ...(flatChanges !== undefined ? { flatChanges } : {}),
      receipts: this.receipts,
      gasUsed: this.gasUsed,
      stateRoot,
      receiptsRoot: receiptsRoot(this.receipts, this.input.common),
      logsBloom: combineBlooms(mapPacked(this.receipts, (r) => r.logsBloom)),
      stateWrites: this.opened.buffer,
      state: this.opened,
    };
  }
}

/** runTx's log tuples as receipt logs; indexed, not destructured (an array iterator per log showed in profiles). */
function receiptLogs(logs: readonly (readonly [Uint8Array, Uint8Array[], Uint8Array])[]): TxReceipt['logs'] {
  const out: TxReceipt['logs'][number][] = new Array(logs.length);
  for (let i = 0; i < logs.length; i++) {
    const log = logs[i]!;
    out[i] = { address: log[0], topics: log[1], data: log[2] };
  }
  return out;
}

/** A state opened for the block lists its flat-state changes (state/change-list.ts); a given one when asked to. */
function listsFlatChanges(input: BlockRunnerInput): boolean {
  return input.state === undefined || input.listFlatChanges === true;
}

function reasonOf(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  // @ethereumjs appends " (<vm> -> <block> -> <tx>)" to its messages: keep the part a person can read.
  return message.replace(/ \([\s\S]*? -> [\s\S]*$/, '').trim();
}

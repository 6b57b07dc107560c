/**
 * Message calls (eth_call, eth_estimateGas) on a block's state; nothing is ever persisted.
 *
 * Building a VM costs more than running a typical view call (the EVM builds its opcode and precompile
 * tables: profiled at ~60% of a call), so a `CallExecutor` keeps a few VMs per block and reuses them. Each
 * VM runs on a `CallState` (call-state.ts): the block's state as read through the executor's shared
 * `BlockReads`, under a write overlay that is dropped after each call, so no call sees another's writes and
 * a hot contract's accounts, code and slots are read from the trie once per block. A block's state is
 * immutable (it is addressed by the block hash), so an executor never goes stale; a new head gets its own.
 *
 * A call to an address runs the lean path (`executeCall`): what runTx does for a transaction whose result is
 * only its execution (intrinsic gas, the sender's up-front cost and nonce, EIP-2929 warming, refunds) without building a transaction object, receipts, bloom, miner payment or cleanup of
 * touched accounts, none of which a call's answer shows. Creations, and rules with transaction-level EIPs
 * the lean path does not know (a retesteth chain may enable London and later), go through runTx; a test runs
 * both paths on the same calls and compares every field.
 *
 * Neither path refuses a sender with code (EIP-3607): a call is no transaction, and geth, core-geth, Anvil and Hardhat
 * all answer calls from a contract's address (a wallet previewing a multisig's action, Hardhat's network helpers
 * estimating gas for an impersonated contract before sending).
 */
import { performance } from 'node:perf_hooks';
import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import { createAccessList2930Tx, createLegacyTx } from '@ethereumjs/tx';
import { Account, Address, MAX_INTEGER, MAX_UINT64 } from '@ethereumjs/util';
import { createVM, runTx, type VM } from '@ethereumjs/vm';
import { BlockReads, CallState, type StateSource } from './call-state.js';
import { CallTimeoutError, callDeadlineInstalled, clearDeadline, setDeadline } from './call-deadline.js';
import { jumpAnalysisCacheInstalled } from './jump-analysis-cache.js';
import { leanFrames } from './call-frames.js';
import { dropConsole, takeConsole, watchConsole } from './console-watch.js';
import { withoutSenderCodeCheck } from './impersonated-run.js';
import {
  type BlockEnvOverrides,
  InvalidOverrideError,
  OverrideBase,
  type StateOverrides,
  blockWithOverrides,
  hasBlockOverrides,
} from './overrides.js';
import { hexKey } from '../db/hex-key.js';
import type { ReceiptLog } from '../codec/receipts.js';

export interface CallMessage {
  /** Sender; the zero address when absent. */
  readonly from?: Uint8Array;
  /** Callee; absent = contract creation with `data` as init code. */
  readonly to?: Uint8Array;
  readonly data?: Uint8Array;
  readonly value?: bigint;
  /** Gas limit; defaults to the block's gas limit. */
  readonly gas?: bigint;
  readonly gasPrice?: bigint;
  /**
   * Wall-clock limit: past `at` (a `performance.now()` time) execution stops and `run` throws
   * `CallTimeoutError` naming `limitMs`. Several runs may share one deadline (eth_estimateGas's search).
   */
  readonly deadline?: { readonly at: number; readonly limitMs: number };
  /** geth's state and block overrides, for this call only (overrides.ts). */
  readonly overrides?: CallOverrides;
  /** eth_createAccessList: run as an EIP-2930 transaction carrying this list, and report the list it touched. */
  readonly accessList?: readonly CallAccessListEntry[];
  /** Dev: decode the call's console.log calls into `CallResult.console` (console-watch.ts). */
  readonly console?: boolean;
}

export interface CallOverrides {
  readonly state?: StateOverrides;
  readonly block?: BlockEnvOverrides;
}

/** An EIP-2930 access list entry: 20-byte address and 32-byte storage keys, as runTx reports them (0x hex). */
export interface CallAccessListEntry {
  readonly address: string;
  readonly storageKeys: readonly string[];
}

export interface CallResult {
  readonly returnData: Uint8Array;
  /** Gas the transaction would be charged (intrinsic gas included, refunds applied). */
  readonly gasUsed: bigint;
  /** True when execution ended with REVERT; `returnData` then holds the revert bytes. */
  readonly reverted: boolean;
  /** Why execution failed: an EVM error ('revert', 'out of gas', 'invalid opcode', ...) or a rejection reason. */
  readonly error?: string;
  readonly logs: readonly ReceiptLog[];
  /** For creations: where the contract would be deployed. */
  readonly createdAddress?: Uint8Array;
  /** With `msg.accessList`: the accounts and slots the call touched (sender, recipient and precompiles left out). */
  readonly accessList?: readonly CallAccessListEntry[];
  /** With `msg.console`: the lines its console.log calls wrote, when it made any. */
  readonly console?: readonly string[];
}

export interface CallContext {
  readonly store: StateSource;
  readonly common: Common;
  readonly stateRoot: Uint8Array;
  /** The block whose header is the call's environment (and whose post-state is `stateRoot`). */
  readonly envBlock: Block;
  readonly ancestors: EVMMockBlockchainInterface;
}

/**
 * VMs kept per block. Over HTTP, calls interleave only where a read misses the shared reads and waits on the
 * database; once a contract's state is read a call runs to its end without yielding to I/O, so one or two VMs
 * serve any concurrency. In-process callers that start many calls at once (microtask-interleaved, one VM
 * each) would otherwise build and drop VMs on every round: an idle VM costs ~50 kB, building one ~0.3 ms.
 */
const MAX_IDLE_VMS = 16;

/** A VM and the state it runs on. */
interface CallVm {
  readonly vm: VM;
  readonly state: CallState;
}

/** Narrower paths switched off (tests and benches compare them with the library's). */
export interface CallExecutorOptions {
  /** false: every call goes through runTx. */
  readonly leanPath?: boolean;
  /** false: the VMs keep the library's CALL frames (call-frames.ts). */
  readonly leanFrames?: boolean;
}

/** Runs calls against one block's state with reusable VMs. Safe for concurrent calls. */
export class CallExecutor {
  private readonly idle: CallVm[] = [];
  /** What calls have read from the block's state, shared by this executor's VMs. */
  readonly reads: BlockReads;
  /** Intrinsic-gas parameters for the lean path; undefined = every call goes through runTx. */
  private readonly lean: LeanParams | undefined;
  /** Whether the VMs run CALL frames the lean way (call-frames.ts). */
  private readonly leanFrames: boolean;

  constructor(
    private readonly ctx: CallContext,
    opts: CallExecutorOptions = {},
  ) {
    this.reads = new BlockReads(ctx.store, ctx.common, ctx.stateRoot);
    this.lean = opts.leanPath === false ? undefined : leanParams(ctx.common);
    this.leanFrames = opts.leanFrames !== false;
  }

  /**
   * Throws `CallTimeoutError` when `msg.deadline` passes before the call ends, and `InvalidOverrideError` for
   * overrides the rules cannot take.
   */
  async run(msg: CallMessage): Promise<CallResult> {
    const { deadline } = msg;
    if (deadline !== undefined && performance.now() > deadline.at) throw new CallTimeoutError(deadline.limitMs);
    const slot = this.idle.pop() ?? (await this.newVm());
    let reusable = true;
    if (deadline !== undefined) setDeadline(slot.vm.evm, deadline.at, deadline.limitMs);
    // A VM watches once asked (and keeps watching: its calls without the flag drop what it kept).
    if (msg.console === true) watchConsole(slot.vm.evm);
    try {
      const result = await execute(slot.vm, await this.applyOverrides(slot, msg.overrides), this.lean, msg);
      const lines = msg.console === true ? takeConsole(slot.vm.evm) : undefined;
      return lines === undefined ? result : { ...result, console: lines };
    } catch (err) {
      // A rejection (e.g. gas below the intrinsic gas) is an answer; the VM that threw is not trusted again
      // (a call stopped by its deadline leaves its frames' checkpoints open).
      reusable = false;
      if (err instanceof CallTimeoutError || err instanceof InvalidOverrideError) throw err;
      return rejection(err);
    } finally {
      if (deadline !== undefined) clearDeadline(slot.vm.evm);
      dropConsole(slot.vm.evm);
      if (reusable) {
        slot.state.reset();
        if (this.idle.length < MAX_IDLE_VMS) this.idle.push(slot);
      }
    }
  }

  /** Installs the state overrides on the VM's state; the context with the block overrides' environment. */
  private async applyOverrides(slot: CallVm, overrides: CallOverrides | undefined): Promise<CallContext> {
    if (overrides === undefined) return this.ctx;
    const { common } = this.ctx;
    if (overrides.state !== undefined) {
      slot.state.setOverrides(await OverrideBase.resolve(overrides.state, (a) => slot.state.getAccount(a), common));
    }
    if (!hasBlockOverrides(overrides.block)) return this.ctx;
    return { ...this.ctx, envBlock: blockWithOverrides(this.ctx.envBlock, overrides.block, common) };
  }

  private async newVm(): Promise<CallVm> {
    await Promise.all([jumpAnalysisCacheInstalled, callDeadlineInstalled]);
    // A shallow copy per VM: the EVM subscribes to its Common's events.
    const common = this.ctx.common.copy();
    rememberEips(common);
    const state = new CallState(this.reads, common);
    const vm = await createVM({ common, stateManager: state, blockchain: this.ctx.ancestors });
    if (this.leanFrames) await leanFrames(vm.evm);
    return { vm, state };
  }
}

/**
 * The EVM asks `isActivatedEIP` several times per opcode, and Common scans its list of active EIPs each time
 * (~3% of a view call). A call VM's Common stays at one hardfork, so the answers are remembered, and forgotten
 * should the hardfork ever change.
 */
function rememberEips(common: Common): void {
  const scan = common.isActivatedEIP.bind(common);
  const known = new Map<number, boolean>();
  common.isActivatedEIP = (eip: number): boolean => {
    let active = known.get(eip);
    if (active === undefined) known.set(eip, (active = scan(eip)));
    return active;
  };
  common.events.on('hardforkChanged', () => known.clear());
}

/** One call on a fresh executor (kept for callers that run a single call). */
export async function runCall(ctx: CallContext, msg: CallMessage): Promise<CallResult> {
  return new CallExecutor(ctx).run(msg);
}

/** Transaction-level EIPs runTx applies and `executeCall` does not: with any of them active, calls take runTx. */
const RUN_TX_ONLY_EIPS = [1559, 2780, 4844, 7623, 7702, 7825, 7864, 7928, 8037];

interface LeanParams {
  /** Intrinsic gas of a call with no data (txGas). */
  readonly base: bigint;
  readonly zeroByte: bigint;
  readonly nonZeroByte: bigint;
}

/** Read once per executor from a transaction object, so the figures are the ones runTx would charge. */
function leanParams(common: Common): LeanParams | undefined {
  if (RUN_TX_ONLY_EIPS.some((eip) => common.isActivatedEIP(eip))) return undefined;
  const tx = createLegacyTx({ to: new Uint8Array(20) }, { common });
  return {
    base: tx.getIntrinsicGas(),
    zeroByte: tx.common.param('txDataZeroGas'),
    nonZeroByte: tx.common.param('txDataNonZeroGas'),
  };
}

const ZERO_ADDRESS = new Uint8Array(20);
const NO_DATA = new Uint8Array(0);

async function execute(vm: VM, ctx: CallContext, lean: LeanParams | undefined, msg: CallMessage): Promise<CallResult> {
  const sender = new Address(msg.from ?? ZERO_ADDRESS);
  // Each call starts with an empty journal (warm sets, touched accounts): the previous call's state is gone.
  vm.evm.journal.cleanJournal();
  const gasLimit = msg.gas ?? ctx.envBlock.header.gasLimit;
  const value = msg.value ?? 0n;
  const gasPrice = msg.gasPrice ?? 0n;
  // Values a transaction object would refuse keep runTx's path and messages.
  if (
    lean !== undefined &&
    msg.accessList === undefined &&
    msg.to !== undefined &&
    gasLimit <= MAX_UINT64 &&
    value <= MAX_INTEGER &&
    gasPrice * gasLimit <= MAX_INTEGER
  ) {
    return executeCall(vm, ctx.envBlock, lean, sender, msg.to, msg.data ?? NO_DATA, value, gasLimit, gasPrice);
  }
  const account = await vm.stateManager.getAccount(sender);
  // An unsigned transaction whose sender we assert: calls need no signature, only the sender's view.
  const fields = { nonce: account?.nonce ?? 0n, to: msg.to, data: msg.data, value, gasLimit, gasPrice };
  const accessList = msg.accessList?.map((e) => ({
    address: e.address as `0x${string}`,
    storageKeys: e.storageKeys.map((key) => key as `0x${string}`),
  }));
  const tx =
    accessList === undefined
      ? createLegacyTx(fields, { common: ctx.common, freeze: false })
      : createAccessList2930Tx({ ...fields, accessList }, { common: ctx.common, freeze: false });
  tx.getSenderAddress = () => sender;
  const result = await withoutSenderCodeCheck(vm.stateManager, sender, () =>
    runTx(vm, {
      tx,
      block: ctx.envBlock,
      skipNonce: true,
      skipBalance: true,
      skipBlockGasLimitValidation: true,
      reportAccessList: accessList !== undefined,
    }),
  );
  const err = result.execResult.exceptionError;
  return {
    returnData: result.execResult.returnValue,
    gasUsed: result.totalGasSpent,
    reverted: err?.error === 'revert',
    ...(err !== undefined ? { error: err.error } : {}),
    logs: (result.execResult.logs ?? []).map(([address, topics, data]) => ({ address, topics, data })),
    ...(result.createdAddress !== undefined ? { createdAddress: result.createdAddress.bytes } : {}),
    ...(result.accessList !== undefined ? { accessList: result.accessList } : {}),
  };
}

/**
 * A call to `to` as runTx runs a legacy transaction with skipNonce, skipBalance and no block gas-limit check
 * (vm/src/runTx.ts, the parts a pre-London message call reaches), in its order: warm addresses (EIP-2929),
 * intrinsic gas, raise the sender's balance to the up-front cost if short, charge gas * price and bump the nonce, run the message in a nested checkpoint, then gas used =
 * intrinsic + execution - refund (capped by maxRefundQuotient). Thrown messages are runTx's without its
 * block and transaction suffix (which `rejection` strips).
 */
async function executeCall(
  vm: VM,
  block: Block,
  lean: LeanParams,
  sender: Address,
  to: Uint8Array,
  data: Uint8Array,
  value: bigint,
  gasLimit: bigint,
  gasPrice: bigint,
): Promise<CallResult> {
  const { evm, common } = vm;
  const journal = evm.journal;
  await journal.checkpoint();
  if (common.isActivatedEIP(2929)) {
    const warm = alwaysWarm(evm);
    warm.add(hexKey(sender.bytes));
    warm.add(hexKey(to));
    if (common.isActivatedEIP(3651)) warm.add(hexKey(block.header.coinbase.bytes));
  }
  let zeros = 0;
  for (let i = 0; i < data.length; i++) if (data[i] === 0) zeros++;
  const intrinsic = lean.base + BigInt(zeros) * lean.zeroByte + BigInt(data.length - zeros) * lean.nonZeroByte;
  if (gasLimit < intrinsic) {
    throw new Error(
      `INTRINSIC_GAS_TOO_LOW: tx gas limit ${Number(gasLimit)} is lower than the minimum gas limit of ${Number(intrinsic)}`,
    );
  }
  const from = (await vm.stateManager.getAccount(sender)) ?? new Account();
  if (from.nonce >= MAX_UINT64)
    throw new Error(`nonce cannot equal or exceed MAX_UINT64 (2^64-1), given ${from.nonce}`);
  const gasCost = gasLimit * gasPrice;
  if (from.balance < gasCost + value) from.balance = gasCost + value;
  from.balance -= gasCost;
  from.nonce += 1n;
  await journal.putAccount(sender, from);
  await journal.checkpoint();
  const result = await evm.runCall({
    block,
    gasPrice,
    caller: sender,
    gasLimit: gasLimit - intrinsic,
    to: new Address(to),
    value,
    data,
    skipNonceIncrement: true,
  });
  await journal.commit();
  const exec = result.execResult;
  let gasUsed = exec.executionGasUsed + intrinsic;
  const refund = exec.gasRefund ?? 0n;
  if (refund !== 0n) {
    const maxRefund = gasUsed / common.param('maxRefundQuotient');
    gasUsed -= refund < maxRefund ? refund : maxRefund;
  }
  const err = exec.exceptionError;
  return {
    returnData: exec.returnValue,
    gasUsed,
    reverted: err?.error === 'revert',
    ...(err !== undefined ? { error: err.error } : {}),
    logs: (exec.logs ?? []).map(([address, topics, logData]) => ({ address, topics, data: logData })),
  };
}

type WarmJournal = { alwaysWarmJournal: Map<string, ReadonlySet<string>>; accessList?: unknown };

/** The precompiles' addresses as a journal's always-warm map holds them, per EVM (its precompiles never change). */
const warmPrecompiles = new WeakMap<object, ReadonlyMap<string, ReadonlySet<string>>>();
/** The slots of every always-warm address of a lean call: none, as only access lists (runTx's path) add any. */
const NO_SLOTS: ReadonlySet<string> = new Set();

/**
 * What `journal.addAlwaysWarmAddress` does for the precompiles and then each added address (unprefixed hex), on a
 * journal just cleaned and not reporting an access list: one copy of a per-EVM map instead of a prefix check and a
 * set per precompile and call.
 */
function alwaysWarm(evm: VM['evm']): { add(address: string): void } {
  const journal = evm.journal as unknown as WarmJournal;
  if (journal.accessList !== undefined) return { add: (address) => evm.journal.addAlwaysWarmAddress(address) };
  let precompiles = warmPrecompiles.get(evm);
  if (precompiles === undefined) {
    precompiles = new Map([...evm.precompiles.keys()].map((address) => [address, NO_SLOTS]));
    warmPrecompiles.set(evm, precompiles);
  }
  const warm = new Map(precompiles);
  journal.alwaysWarmJournal = warm;
  return {
    add: (address) => {
      if (!warm.has(address)) warm.set(address, new Set());
    },
  };
}

/** runTx's refusal of a call, without the block and transaction details @ethereumjs appends. */
export function rejectionMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/ \([\s\S]*? -> [\s\S]*$/, '').trim();
}

function rejection(err: unknown): CallResult {
  return { returnData: new Uint8Array(0), gasUsed: 0n, reverted: false, error: rejectionMessage(err), logs: [] };
}

/**
 * A message-call frame without @ethereumjs/evm's copies of the frame's message and run state.
 *
 * The library's `_executeCall` hands `runInterpreter` a copy of the message (`{ ...message, gasLimit }`), and
 * `runInterpreter` returns, beside the result, `runState: { ...runState, ...result, ...env }`: objects of 30 to 40
 * properties built by spreading, which V8 keeps as dictionaries (~11 kB and ~25 kB per frame, a third of a view
 * call's allocations, and ~40 µs of its CPU with the collections they cause). Nothing reads that `runState` (not the
 * library, not the VM, not this node) and the message copy only differs from the message by its gas limit.
 *
 * `leanFrames` gives one call VM's EVM its own `_executeCall`: the library's steps for a CALL frame (sender and
 * recipient balances, the code load, the early exits, precompiles, the interpreter, the transient-storage cleanup of
 * a top frame) in its order, with the frame's gas limit passed beside the message and the merged run state built
 * only when read. Rules that add steps to that frame (EIP-2780, 6800, 7708, 7864, 7928: none on Ethereum Classic)
 * keep the library's method, and so do an EVM in debug mode or with its profiler on. Creations keep the library's
 * path. `test/chain/engine/call-lean-path.test.ts` compares calls on such VMs with runTx on the library's VM.
 * The same install gives the EVM the lean opcodes and journal keys.
 */
import { Account, createZeroAddress } from '@ethereumjs/util';
import { leanJournal } from './call-journal.js';
import { leanOpcodes } from './call-opcodes.js';
import { interpreterPrototype } from './evm-interpreter.js';

/** Rules under which the library's `_executeCall` or `runInterpreter` does more than the lean frame. */
const FRAME_EIPS = [2780, 6800, 7708, 7864, 7928];

const REVERT = 'revert';
const INVALID_EOF_FORMAT = 'invalid EOF format';

// The library's members used here (its names; the classes are typed loosely, as sync-step.ts does).
type Message = {
  readonly to: unknown;
  readonly caller: unknown;
  readonly value: bigint;
  readonly gasLimit: bigint;
  readonly data: Uint8Array;
  readonly depth: number;
  readonly code: unknown;
  readonly codeAddress: unknown;
  readonly isStatic: boolean;
  readonly isCreate?: boolean;
  readonly isCompiled: boolean;
  readonly delegatecall: boolean;
  readonly gasRefund: bigint;
  readonly chargeCodeAccesses?: boolean;
  readonly blobVersionedHashes?: unknown[];
  readonly accessWitness?: { commit(): void };
  readonly createdAddresses?: unknown;
  readonly selfdestruct?: unknown;
};
type ExecResult = Record<string, unknown> & { executionGasUsed: bigint; gasRefund?: bigint };
interface StateReader {
  getAccount(address: unknown): Promise<Account | undefined>;
}
interface EvmFrames {
  DEBUG?: boolean;
  _optsCached: { profiler?: { enabled?: boolean } };
  common: { isActivatedEIP(eip: number): boolean; consensusType(): string };
  stateManager: StateReader;
  blockchain: unknown;
  journal: unknown;
  performanceLogger: unknown;
  _tx: { gasPrice: bigint; origin?: unknown };
  _block: unknown;
  _executeCall(message: Message): Promise<{ execResult: ExecResult }>;
  _reduceSenderBalance(account: Account, message: Message): Promise<void>;
  _addToBalance(account: Account, message: Message): Promise<void>;
  _loadCode(message: Message): Promise<void>;
  runPrecompile(code: unknown, data: Uint8Array, gasLimit: bigint): Promise<ExecResult>;
  postMessageCleanup(): void;
}
interface InterpreterRun {
  _runState: Record<string, unknown>;
  _result: { logs: unknown[]; returnValue?: Uint8Array; selfdestruct: unknown; createdAddresses?: unknown };
  _env: Record<string, unknown>;
  run(
    code: unknown,
    opts: { initialLogs?: unknown },
  ): Promise<{
    runState: Record<string, unknown> & { gasLeft: bigint; gasRefund: bigint; stateGasSpilled?: bigint };
    exceptionError?: { error: string };
  }>;
}
type InterpreterClass = new (
  evm: EvmFrames,
  stateManager: StateReader,
  blockchain: unknown,
  env: Record<string, unknown>,
  gasLeft: bigint,
  journal: unknown,
  performanceLogs: unknown,
  profilerOpts: unknown,
) => InterpreterRun;

/** The library's Interpreter class (not exported by the package), undefined when it is not where it was. */
const interpreterClass: Promise<InterpreterClass | undefined> = interpreterPrototype<{ constructor: unknown }>().then(
  (proto) => (typeof proto?.constructor === 'function' ? (proto.constructor as InterpreterClass) : undefined),
);

/** One for the process: the memory pool is shared by every call VM. */
let sharedKit: FrameKit | undefined;

/**
 * Gives `evm` the lean CALL frame, with the lean opcodes (call-opcodes.ts) and journal keys (call-journal.ts), when
 * its rules and options allow; returns whether it did.
 */
export async function leanFrames(evm: object): Promise<boolean> {
  const Interpreter = await interpreterClass;
  const target = evm as EvmFrames;
  if (Interpreter === undefined || typeof target._executeCall !== 'function') return false;
  if (target.DEBUG === true || target._optsCached?.profiler?.enabled === true) return false;
  if (target.common.consensusType() === 'poa') return false; // the library's constructor checks the clique signer
  if (FRAME_EIPS.some((eip) => target.common.isActivatedEIP(eip))) return false;
  const kit = (sharedKit ??= frameKit(
    Interpreter,
    new Interpreter(target, target.stateManager, undefined, { gasRefund: 0n }, 0n, undefined, undefined, undefined),
  ));
  leanOpcodes(target);
  leanJournal(target.journal as object);
  const library = target._executeCall;
  target._executeCall = function (this: EvmFrames, message: Message) {
    // The environment block is set by a top-level runCall; without one the library supplies its default.
    if (this._block === undefined) return library.call(this, message);
    return executeCall(this, kit, message);
  };
  return true;
}

/** The library's `_executeCall` (evm.ts) for rules without FRAME_EIPS, step for step. */
async function executeCall(evm: EvmFrames, kit: FrameKit, message: Message): Promise<{ execResult: ExecResult }> {
  const gasLimit = message.gasLimit;
  const account = (await evm.stateManager.getAccount(message.caller)) ?? new Account();
  let errorMessage: unknown;
  if (!message.delegatecall) {
    try {
      await evm._reduceSenderBalance(account, message);
    } catch (e) {
      errorMessage = e;
    }
  }
  const toAccount = (await evm.stateManager.getAccount(message.to)) ?? new Account();
  if (!message.delegatecall) {
    try {
      await evm._addToBalance(toAccount, message);
    } catch (e) {
      errorMessage = e;
    }
  }
  await evm._loadCode(message);
  const code = message.code as { length?: number } | undefined;
  if (!code || (typeof code !== 'function' && code.length === 0) || errorMessage !== undefined) {
    return {
      execResult: {
        gasRefund: message.gasRefund,
        executionGasUsed: 0n,
        exceptionError: errorMessage,
        returnValue: new Uint8Array(0),
        logs: undefined,
      },
    };
  }
  let result: ExecResult;
  if (message.isCompiled) {
    result = await evm.runPrecompile(message.code, message.data, gasLimit);
    result.gasRefund = message.gasRefund;
  } else {
    result = await runInterpreter(evm, kit, message);
  }
  if (message.depth === 0) evm.postMessageCleanup();
  return { execResult: result };
}

/** The library's `runInterpreter` for a CALL frame, on a recycled memory, its `runState` merged only when read. */
async function runInterpreter(evm: EvmFrames, kit: FrameKit, message: Message): Promise<ExecResult> {
  const to = message.to ?? createZeroAddress();
  const contract = (await evm.stateManager.getAccount(to)) ?? new Account();
  const caller = message.caller ?? createZeroAddress();
  const env: Record<string, unknown> = {
    address: to,
    caller,
    callData: message.data ?? Uint8Array.from([0]),
    callValue: message.value ?? 0n,
    code: message.code,
    isStatic: message.isStatic ?? false,
    isCreate: message.isCreate ?? false,
    depth: message.depth ?? 0,
    gasPrice: evm._tx.gasPrice,
    origin: evm._tx.origin ?? caller,
    block: evm._block,
    contract,
    codeAddress: message.codeAddress,
    gasRefund: message.gasRefund,
    chargeCodeAccesses: message.chargeCodeAccesses,
    blobVersionedHashes: message.blobVersionedHashes ?? [],
    accessWitness: message.accessWitness,
    createdAddresses: message.createdAddresses,
    initialLogs: undefined,
  };
  const gasLimit = message.gasLimit;
  const memory = kit.memory();
  const interpreter = newInterpreter(evm, kit, env, gasLimit, memory);
  if (message.selfdestruct) interpreter._result.selfdestruct = message.selfdestruct;
  if (message.createdAddresses) interpreter._result.createdAddresses = message.createdAddresses;
  const outcome = await interpreter.run(message.code, { initialLogs: undefined });
  // What the frame returns and logs are copies (RETURN, REVERT and LOG copy out of memory): it is free again.
  kit.release(memory);
  let result = interpreter._result;
  const { runState, exceptionError } = outcome;
  let gasUsed = gasLimit - runState.gasLeft;
  if (exceptionError) {
    if (exceptionError.error !== REVERT && exceptionError.error !== INVALID_EOF_FORMAT) gasUsed = gasLimit;
    result = { ...result, logs: [], selfdestruct: new Map(), createdAddresses: new Set() };
  }
  message.accessWitness?.commit();
  return new FrameResult(result, runState, interpreter._env, exceptionError, gasUsed);
}

/**
 * The library's result of `runInterpreter`; `runState` (which nothing reads, and whose memory may by then serve
 * another frame) is merged when read.
 */
class FrameResult {
  readonly logs: unknown[];
  readonly selfdestruct: unknown;
  readonly createdAddresses?: unknown;
  readonly gas: bigint;
  readonly gasRefund: bigint;
  readonly stateGasSpilled?: bigint;
  readonly returnValue: Uint8Array;
  [key: string]: unknown;

  constructor(
    result: InterpreterRun['_result'],
    private readonly frameState: Record<string, unknown> & {
      gasLeft: bigint;
      gasRefund: bigint;
      stateGasSpilled?: bigint;
    },
    private readonly frameEnv: Record<string, unknown>,
    readonly exceptionError: { error: string } | undefined,
    public executionGasUsed: bigint,
  ) {
    this.logs = result.logs;
    this.selfdestruct = result.selfdestruct;
    if ('createdAddresses' in result) this.createdAddresses = result.createdAddresses;
    this.gas = frameState.gasLeft;
    this.gasRefund = frameState.gasRefund;
    this.stateGasSpilled = frameState.stateGasSpilled;
    this.returnValue = result.returnValue ?? new Uint8Array(0);
  }

  get runState(): Record<string, unknown> {
    const { frameState, frameEnv, logs, selfdestruct, createdAddresses, returnValue } = this;
    return { ...frameState, logs, selfdestruct, createdAddresses, returnValue, ...frameEnv };
  }
}

/** What frames need from the library beyond the EVM: its Interpreter, Memory and Stack classes, and a memory pool. */
interface FrameKit {
  readonly Interpreter: InterpreterClass;
  readonly Stack: new () => unknown;
  memory(): { _store: Uint8Array };
  release(memory: { _store: Uint8Array }): void;
}

/** A frame's memory starts as 8 kB of zeros (the library's Memory); kept here while free, up to a bound. */
const MEMORY_BYTES = 8192;
const MAX_FREE_MEMORIES = 64;

function frameKit(Interpreter: InterpreterClass, sample: InterpreterRun): FrameKit {
  const { memory, stack } = sample._runState as { memory: object; stack: object };
  const Memory = memory.constructor as new () => { _store: Uint8Array };
  const free: Uint8Array[] = [];
  return {
    Interpreter,
    Stack: stack.constructor as new () => unknown,
    memory() {
      const memory = Object.create(Memory.prototype) as { _store: Uint8Array };
      memory._store = free.pop() ?? new Uint8Array(MEMORY_BYTES);
      return memory;
    },
    release(memory) {
      const store = memory._store;
      // A memory that grew keeps its larger store: it goes back to the collector.
      if (store.length !== MEMORY_BYTES || free.length >= MAX_FREE_MEMORIES) return;
      free.push(store.fill(0));
    },
  };
}

/** The library's `new Interpreter(...)` (interpreter.ts), field for field, with `memory` given. */
function newInterpreter(
  evm: EvmFrames,
  kit: FrameKit,
  env: Record<string, unknown>,
  gasLeft: bigint,
  memory: object,
): InterpreterRun {
  const interpreter = Object.create(kit.Interpreter.prototype) as InterpreterRun & Record<string, unknown>;
  interpreter.opDebuggers = {};
  interpreter._evm = evm;
  interpreter._stateManager = evm.stateManager;
  interpreter.common = evm.common;
  interpreter._runState = {
    programCounter: 0,
    opCode: 0xfe,
    memory,
    memoryWordCount: 0n,
    highestMemCost: 0n,
    stack: new kit.Stack(),
    code: new Uint8Array(0),
    validJumps: Uint8Array.from([]),
    cachedPushes: {},
    stateManager: evm.stateManager,
    blockchain: evm.blockchain,
    env,
    shouldDoJumpAnalysis: true,
    interpreter,
    gasRefund: env.gasRefund,
    gasLeft,
    stateGasSpilled: 0n,
    returnBytes: new Uint8Array(0),
  };
  interpreter.journal = evm.journal;
  interpreter._env = env;
  interpreter._result = { logs: [], returnValue: undefined, selfdestruct: new Map() };
  interpreter.profilerOpts = evm._optsCached.profiler;
  interpreter.performanceLogger = evm.performanceLogger;
  return interpreter;
}

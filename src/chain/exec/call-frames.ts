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
 */
import { Account, createZeroAddress } from '@ethereumjs/util';
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
  common: { isActivatedEIP(eip: number): boolean };
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

/** Gives `evm` the lean CALL frame when its rules and options allow; returns whether it did. */
export async function leanFrames(evm: object): Promise<boolean> {
  const Interpreter = await interpreterClass;
  const target = evm as EvmFrames;
  if (Interpreter === undefined || typeof target._executeCall !== 'function') return false;
  if (target.DEBUG === true || target._optsCached?.profiler?.enabled === true) return false;
  if (FRAME_EIPS.some((eip) => target.common.isActivatedEIP(eip))) return false;
  const library = target._executeCall;
  target._executeCall = function (this: EvmFrames, message: Message) {
    // The environment block is set by a top-level runCall; without one the library supplies its default.
    if (this._block === undefined) return library.call(this, message);
    return executeCall(this, Interpreter, message);
  };
  return true;
}

/** The library's `_executeCall` (evm.ts) for rules without FRAME_EIPS, step for step. */
async function executeCall(
  evm: EvmFrames,
  Interpreter: InterpreterClass,
  message: Message,
): Promise<{ execResult: ExecResult }> {
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
    result = await runInterpreter(evm, Interpreter, message);
  }
  if (message.depth === 0) evm.postMessageCleanup();
  return { execResult: result };
}

/** The library's `runInterpreter` for a CALL frame, its `runState` merged only when read. */
async function runInterpreter(evm: EvmFrames, Interpreter: InterpreterClass, message: Message): Promise<ExecResult> {
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
  const interpreter = new Interpreter(
    evm,
    evm.stateManager,
    evm.blockchain,
    env,
    gasLimit,
    evm.journal,
    evm.performanceLogger,
    evm._optsCached.profiler,
  );
  if (message.selfdestruct) interpreter._result.selfdestruct = message.selfdestruct;
  if (message.createdAddresses) interpreter._result.createdAddresses = message.createdAddresses;
  const outcome = await interpreter.run(message.code, { initialLogs: undefined });
  let result: Record<string, unknown> = interpreter._result;
  const { runState, exceptionError } = outcome;
  let gasUsed = gasLimit - runState.gasLeft;
  if (exceptionError) {
    if (exceptionError.error !== REVERT && exceptionError.error !== INVALID_EOF_FORMAT) gasUsed = gasLimit;
    result = { ...result, logs: [], selfdestruct: new Map(), createdAddresses: new Set() };
  }
  message.accessWitness?.commit();
  const merged = result;
  return {
    ...result,
    get runState() {
      return { ...runState, ...merged, ...interpreter._env };
    },
    exceptionError,
    gas: runState.gasLeft,
    executionGasUsed: gasUsed,
    gasRefund: runState.gasRefund,
    stateGasSpilled: runState.stateGasSpilled,
    returnValue: (result.returnValue as Uint8Array | undefined) ?? new Uint8Array(0),
  };
}

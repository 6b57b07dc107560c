/**
 * EVM steps without a promise where a step has nothing to wait for.
 *
 * @ethereumjs/evm's interpreter runs every opcode through the async `runStep` and awaits it: a promise and a
 * microtask per opcode, the largest allocation site of an ERC-20 transfer's block (bench/transfer-phases.ts
 * `HEAP=`). Most opcodes (PUSH, DUP, SWAP, arithmetic, JUMP…) have a fixed gas cost and a synchronous handler.
 *
 * `runStepInline` does such a step itself, in the library's order: charge the fixed gas (`useGas`, which throws
 * out-of-gas), advance the program counter, run the handler, commit the access witness. An entry carrying
 * `syncGas` (call VMs' memory opcodes, call-opcodes.ts) is such a step too, its dynamic gas computed first. Everything else is left to
 * the library's `runStep`: dynamic gas or async handlers, invalid opcodes, a `step` listener (tracing), the EVM's
 * debug mode or profiler, code-chunk charging (EIP-6800/7864) and a pending EIP-7928 call failure.
 *
 * `runLegacyCode` is the interpreter's loop over legacy (non-EOF) code, awaiting only the steps that return a
 * promise; it keeps the library's semantics: jump analysis before the first JUMP/JUMPI/JUMPSUB, a VM error ends
 * the frame (STOP being no error), any other error leaves it. Frames it does not cover (EOF code, the profiler,
 * EIP-7864 witnesses, EIP-8037 state gas) run the library's own loop. A frame with no per-step observer (no `step`
 * listener or step probe, no debug mode) runs in `laneLoop`, which checks those once per frame and counts a static-gas
 * step's gas in a number, writing the BigInt back before anything reads it.
 */

import { countStep, deadlineOf } from './call-timeout.js';
import { type OpProbe, opProbeOf } from './op-probe.js';
import { type StepProbe, stepProbeOf } from './step-probe.js';

const JUMP_OPCODES = new Set([0x56, 0x57, 0x5e]);

const counts = { inline: 0, library: 0 };

/** Steps run here and steps left to the library since start (tests and benches read it). */
export function stepCounts(): { readonly inline: number; readonly library: number } {
  return { ...counts };
}

/**
 * Per EVM (its rules never change): whether its steps may charge code chunks (EIP-6800/7864), which the library does.
 * Kept on the EVM itself: a WeakMap lookup per step showed in the profile of a traced 1,000-step loop.
 */
const CHUNKS = '_svcChargesChunks';
function chargesChunks(interpreter: InterpreterLike): boolean {
  const evm = interpreter._evm as { [CHUNKS]?: boolean };
  let charges = evm[CHUNKS];
  if (charges === undefined) {
    charges = interpreter.common.isActivatedEIP(6800) || interpreter.common.isActivatedEIP(7864);
    evm[CHUNKS] = charges;
  }
  return charges;
}

interface OpcodeInfo {
  readonly code: number;
  readonly name: string;
  readonly fullName: string;
  readonly isAsync: boolean;
  readonly dynamicGas: boolean;
  readonly isInvalid: boolean;
  readonly feeBigInt: bigint;
}
interface OpcodeEntry {
  readonly opcodeInfo: OpcodeInfo;
  readonly opHandler: (runState: RunState, common: unknown) => void;
  /**
   * A dynamic-gas opcode's gas computed without a promise, given to call VMs' entries (call-opcodes.ts): such a
   * step runs here too, its gas from this instead of the library's async handler.
   */
  readonly syncGas?: (runState: RunState, gas: bigint, common: unknown) => bigint;
  /**
   * The whole step as the lane runs it (call VMs' SLOAD and SSTORE, lean-storage-opcodes.ts): its promise, or
   * undefined when it needed none; it hands the step to the library's `runStep` itself where it steps aside.
   */
  /**
   * The handler needs no await though the library marks the opcode async (call VMs' CALLER, CALLVALUE, CALLDATALOAD
   * and other readers of the call's or block's environment, call-opcodes.ts): such a step runs here too.
   */
  readonly syncHandler?: boolean;
  readonly laneStep?: (
    interpreter: InterpreterLike,
    entry: OpcodeEntry,
    libraryStep: LibraryStep,
  ) => Promise<void> | undefined;
}
interface RunState {
  programCounter: number;
  gasLeft: bigint;
  gasRefund: bigint;
  memoryWordCount: bigint;
  readonly stack: { readonly _store: bigint[]; readonly _len: number; getStack(): bigint[] };
  readonly memory: { readonly _store: Uint8Array };
  readonly stateManager: unknown;
  opCode: number;
  code: Uint8Array;
  validJumps: unknown;
  cachedPushes: unknown;
  shouldDoJumpAnalysis: boolean;
  eip7928PostTargetCallOog?: unknown;
  readonly env: {
    readonly accessWitness?: { commit(): void; revert(): void } | undefined;
    readonly chargeCodeAccesses?: boolean;
  };
}
/** The interpreter's members used here (the library's names; the class is not exported, so typed here). */
export interface InterpreterLike {
  readonly _evm: {
    readonly DEBUG?: boolean;
    readonly events?: { listenerCount(event: string): number };
    readonly _opcodeMap: Record<number, OpcodeEntry>;
  };
  readonly _runState: RunState;
  readonly _env: {
    readonly chargeCodeAccesses?: boolean;
    readonly depth: number;
    readonly address: { readonly bytes: Uint8Array };
    readonly contract: { readonly balance: bigint };
  };
  readonly common: { isActivatedEIP(eip: number): boolean };
  readonly profilerOpts?: { readonly enabled?: boolean };
  useGas(amount: bigint, context: OpcodeInfo): void;
  runStep(opcode?: OpcodeEntry): Promise<void> | undefined;
  _getValidJumpDestinations(code: Uint8Array): { jumps: unknown; pushes: unknown; opcodesCached: OpcodeEntry[] };
}

export interface FrameOutcome {
  readonly runState: RunState;
  readonly exceptionError: unknown;
}

/** Runs the current step if it needs no await and returns true; false leaves it to the library's `runStep`. */
export function runStepInline(interpreter: InterpreterLike, opcode: OpcodeEntry | undefined): boolean {
  if (!stepsInline(interpreter, opcode)) {
    counts.library++;
    return false;
  }
  counts.inline++;
  return true;
}

function stepsInline(interpreter: InterpreterLike, opcode: OpcodeEntry | undefined): boolean {
  const runState = interpreter._runState;
  const entry = opcode ?? interpreter._evm._opcodeMap[runState.opCode];
  if (entry === undefined) return false;
  const info = entry.opcodeInfo;
  if (
    (info.isAsync && entry.syncHandler !== true) ||
    info.isInvalid ||
    (info.dynamicGas && entry.syncGas === undefined)
  )
    return false;
  const evm = interpreter._evm;
  if (evm.DEBUG === true || interpreter.profilerOpts?.enabled === true) return false;
  // A tracing probe (step-probe.ts) sees the step here, before the charge, as the library's hook would. A probe
  // comes with its `step` listener (setStepProbe adds both), so with one set the listeners need no count.
  const probe: StepProbe | undefined = stepProbeOf(evm);
  if (probe !== undefined) {
    // A dynamic charge can fail before the library's hook, which then still reports the step: its path does that.
    if (probe.awaits(info.code) || info.dynamicGas) return false;
  } else if (listensToSteps(interpreter)) return false;
  if (runState.eip7928PostTargetCallOog !== undefined) return false;
  if (interpreter._env.chargeCodeAccesses === true && chargesChunks(interpreter)) return false;
  const gas = info.dynamicGas ? entry.syncGas!(runState, info.feeBigInt, interpreter.common) : info.feeBigInt;
  if (probe?.step(interpreter, gas, runState.gasLeft, runState.memoryWordCount) !== undefined)
    throw new Error(`a step probe returned a promise for opcode ${info.code}, which it said it does not await`);
  interpreter.useGas(gas, info);
  runState.programCounter++;
  entry.opHandler(runState, interpreter.common);
  runState.env.accessWitness?.commit();
  return true;
}

/**
 * Whether the EVM has `step` listeners, as `runLegacyCode` found at the frame's start (listeners come and go between
 * transactions: trace/hooks.ts, step-probe.ts and simulate-transfers.ts attach before one runs and detach after it),
 * else asked now: asking the emitter per step was ~3 % of a callTracer trace's samples (bench/trace-engine.ts).
 */
const STEP_LISTENED = '_svcStepListened';
type FrameFlags = { [STEP_LISTENED]?: boolean | undefined };
function listensToSteps(interpreter: InterpreterLike): boolean {
  return (interpreter as FrameFlags)[STEP_LISTENED] ?? (interpreter._evm.events?.listenerCount('step') ?? 0) > 0;
}

/** Whether `runLegacyCode` covers a frame of `code` (else the library's loop runs it). */
export function coversFrame(interpreter: InterpreterLike, code: Uint8Array): boolean {
  const common = interpreter.common;
  if (interpreter.profilerOpts?.enabled === true) return false;
  if (code[0] === 0xef && common.isActivatedEIP(3540)) return false;
  return !common.isActivatedEIP(7864) && !common.isActivatedEIP(8037);
}

/** The library's `runStep` as it was before call-deadline.ts wrapped it. */
export type LibraryStep = (this: InterpreterLike, opcode?: OpcodeEntry) => Promise<void> | undefined;

/** The interpreter's frame loop over legacy code (see the top of this file). */
export async function runLegacyCode(
  interpreter: InterpreterLike,
  code: Uint8Array,
  startPc: number | undefined,
  libraryStep: LibraryStep,
): Promise<FrameOutcome> {
  const runState = interpreter._runState;
  runState.code = code;
  runState.programCounter = startPc ?? runState.programCounter;
  const first = runState.programCounter;
  if (first !== 0 && (first < 0 || first >= code.length))
    throw new Error('Internal error: program counter not in range');
  const flags = interpreter as FrameFlags;
  const listened = (interpreter._evm.events?.listenerCount('step') ?? 0) > 0;
  flags[STEP_LISTENED] = listened;
  try {
    if (!listened && inLane(interpreter)) return await laneLoop(interpreter, runState, libraryStep);
    return await frameLoop(interpreter, runState);
  } finally {
    flags[STEP_LISTENED] = undefined;
  }
}

/**
 * Whether a frame's steps may run in `laneLoop`: nothing that can change within the frame asks for the library's
 * per-step work (a `step` listener, checked by the caller; a step probe; debug mode; code-chunk charging; an access
 * witness to commit per step). Checked once here instead of on every step (`stepsInline`).
 */
function inLane(interpreter: InterpreterLike): boolean {
  if (interpreter._evm.DEBUG === true || interpreter.profilerOpts?.enabled === true) return false;
  if (stepProbeOf(interpreter._evm) !== undefined) return false;
  if (interpreter._env.chargeCodeAccesses === true && chargesChunks(interpreter)) return false;
  return interpreter._runState.env.accessWitness === undefined;
}

/**
 * Per opcode table: the fixed gas of each opcode byte whose step the lane runs with its gas as a number (static gas,
 * a synchronous handler, not invalid, not GAS, whose handler reads the gas left), else -1. Computed once per table
 * (the EVM builds its table per instance; call-opcodes.ts replaces entries before the first frame runs).
 */
const laneFees = new WeakMap<object, Int32Array>();
function laneFeesOf(table: Record<number, OpcodeEntry>): Int32Array {
  let fees = laneFees.get(table);
  if (fees !== undefined) return fees;
  fees = new Int32Array(256).fill(-1);
  for (let code = 0; code < 256; code++) {
    const entry = table[code];
    const info = entry?.opcodeInfo;
    if (info === undefined || info.code !== code || code === GAS_OPCODE) continue;
    if ((info.isAsync && entry!.syncHandler !== true) || info.isInvalid || info.dynamicGas) continue;
    if (info.feeBigInt < 0n || info.feeBigInt > 0x7fffffffn) continue;
    fees[code] = Number(info.feeBigInt);
  }
  laneFees.set(table, fees);
  return fees;
}
const GAS_OPCODE = 0x5a;

/**
 * The frame's gas left as a number the lane can count down, or -1 where it cannot: past 2^53 (never below a block's
 * gas limit, but an eth_call may ask for more) or while an EIP-7928 call failure waits for the next step (the
 * library's step consumes it).
 */
function laneGas(runState: RunState): number {
  if (runState.eip7928PostTargetCallOog !== undefined) return -1;
  const gas = runState.gasLeft;
  return gas <= MAX_SAFE ? Number(gas) : -1;
}
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * `frameLoop` for a frame in the lane (`inLane`). A static-gas step is run here, its gas counted down in a number:
 * the library keeps gas as a BigInt, and `gasLeft -= fee` allocated one per step. The BigInt in the run state is
 * written back before anything that may read it runs: any other step (dynamic gas, CALL/CREATE, GAS, an async
 * handler: `runStepInline` or the library's step), an op probe's `before`, an error, the end of the frame; it is
 * read again after. The deadline and the op probe are checked here as the interpreter's wrapper (call-deadline.ts)
 * does, and the other steps given to the library's own `runStep`, so no step is counted twice.
 */
async function laneLoop(
  interpreter: InterpreterLike,
  runState: RunState,
  libraryStep: LibraryStep,
): Promise<FrameOutcome> {
  const evm = interpreter._evm;
  const table = evm._opcodeMap;
  const fees = laneFeesOf(table);
  const common = interpreter.common;
  const deadline = deadlineOf(evm);
  const probe: OpProbe | undefined = opProbeOf(evm);
  const code = runState.code;
  let exceptionError: unknown;
  let analysed: OpcodeEntry[] | undefined;
  // The gas left while it is counted here (runState.gasLeft then stale), else -1 (runState.gasLeft current).
  let gas = laneGas(runState);
  // The opcode fetch below repeats frameLoop's on purpose: a shared helper would hand back two values a step.
  while (runState.programCounter < code.length) {
    const pc = runState.programCounter;
    let entry: OpcodeEntry | undefined;
    let opCode: number;
    if (analysed === undefined) {
      opCode = code[pc]!;
      if (JUMP_OPCODES.has(opCode)) {
        const { jumps, pushes, opcodesCached } = interpreter._getValidJumpDestinations(code);
        runState.validJumps = jumps;
        runState.cachedPushes = pushes;
        runState.shouldDoJumpAnalysis = false;
        analysed = opcodesCached;
      }
    } else {
      entry = analysed[pc]!;
      opCode = entry.opcodeInfo.code;
    }
    runState.opCode = opCode;
    try {
      if (deadline !== undefined) countStep(deadline);
      if (probe !== undefined && (probe.ops[opCode] === 1 || --probe.countdown <= 0)) {
        if (gas >= 0) runState.gasLeft = BigInt(gas);
        gas = -1;
        const pending = probe.before(interpreter);
        if (pending !== undefined) await pending;
        gas = laneGas(runState);
      }
      const fee = gas >= 0 ? fees[opCode]! : -1;
      if (fee >= 0) {
        entry ??= table[opCode]!;
        if (gas < fee) {
          // Out of gas: the library's charge, from the gas left as it stands, zeroes it and throws its error.
          runState.gasLeft = BigInt(gas);
          gas = -1;
          interpreter.useGas(entry.opcodeInfo.feeBigInt, entry.opcodeInfo);
        }
        gas -= fee;
        runState.programCounter++;
        entry.opHandler(runState, common);
        counts.inline++;
        continue;
      }
      if (gas >= 0) runState.gasLeft = BigInt(gas);
      gas = -1;
      entry ??= table[opCode];
      let pending: Promise<void> | undefined;
      if (entry?.laneStep !== undefined) {
        counts.inline++;
        pending = entry.laneStep(interpreter, entry, libraryStep);
      } else pending = runStepInline(interpreter, entry) ? undefined : libraryStep.call(interpreter, entry);
      if (pending !== undefined) await pending;
      gas = laneGas(runState);
    } catch (err) {
      if (gas >= 0) runState.gasLeft = BigInt(gas);
      gas = -1;
      runState.env.accessWitness?.revert();
      if (!isVmError(err)) throw err;
      if ((err as { error?: unknown }).error !== 'stop') exceptionError = err;
      break;
    }
  }
  if (gas >= 0) runState.gasLeft = BigInt(gas);
  return { runState, exceptionError };
}

/** The loop of a frame outside the lane: each step through the interpreter's (wrapped) `runStep`. */
async function frameLoop(interpreter: InterpreterLike, runState: RunState): Promise<FrameOutcome> {
  let exceptionError: unknown;
  // Until the first jump the opcodes are looked up one by one; from then on the analysis has them all.
  let analysed: OpcodeEntry[] | undefined;
  while (runState.programCounter < runState.code.length) {
    const pc = runState.programCounter;
    let entry: OpcodeEntry | undefined;
    let opCode: number;
    if (analysed === undefined) {
      opCode = runState.code[pc]!;
      if (JUMP_OPCODES.has(opCode)) {
        const { jumps, pushes, opcodesCached } = interpreter._getValidJumpDestinations(runState.code);
        runState.validJumps = jumps;
        runState.cachedPushes = pushes;
        runState.shouldDoJumpAnalysis = false;
        analysed = opcodesCached;
      }
    } else {
      entry = analysed[pc]!;
      opCode = entry.opcodeInfo.code;
    }
    runState.opCode = opCode;
    try {
      const pending = interpreter.runStep(entry);
      if (pending !== undefined) await pending;
    } catch (err) {
      runState.env.accessWitness?.revert();
      if (!isVmError(err)) throw err;
      if ((err as { error?: unknown }).error !== 'stop') exceptionError = err;
      break;
    }
  }
  return { runState, exceptionError };
}

/** The library's test for its own errors (`EVMError`), which end a frame instead of leaving it. */
function isVmError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { errorType?: unknown }).errorType === 'EVMError';
}

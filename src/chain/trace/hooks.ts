/**
 * Feeds one tracer from an EVM's events (`step`, `beforeMessage`, `afterMessage`, `newContract`) while one
 * transaction runs, and enforces the request's caps there.
 *
 * The step listener takes @ethereumjs's two-argument form, so the EVM awaits it: a tracer may read the state
 * before an opcode runs (prestateTracer, the struct logger's SLOAD values). A trace runs in slices: every
 * `CHECK_EVERY` steps the caps are checked, and once a slice has run `SLICE_MS` the trace gives the event loop a turn,
 * so a long trace does not stall the node's other requests; slices are measured in time, not steps, because a step
 * with `enableMemory` over a large memory costs a hundred times a plain one. A cap passed throws `TraceLimitError`
 * from the listener: it is not an EVM error, so no frame catches it and it leaves runTx (the VM it ran on is dropped
 * with the trace); the session keeps it too, for a runner that reports a throw as a failed transaction.
 */
import type { EVM, EVMResult, InterpreterStep, Message } from '@ethereumjs/evm';
import { bytesToUnprefixedHex } from '@ethereumjs/util';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { InterpreterLike } from '../exec/sync-step.js';
import { clearStepProbe, setStepProbe, type StepProbe } from '../exec/step-probe.js';
import { callDeadlineInstalled } from '../exec/call-deadline.js';
import { clearOpProbe, type OpProbe, setOpProbe } from '../exec/op-probe.js';
import { FRAME_OF_OP, FRAMES_CHECK_EVERY, probedOps } from './probed-ops.js';
import { heldFor, type TraceBudget } from './budget.js';
import { ProbedStep } from './probed-step.js';
import { gethError } from './geth-errors.js';
import { TraceLimitError, type FrameEnter, type FrameType, type TraceLimits, type Tracer } from './types.js';

/**
 * Steps between two looks at the clock and the caps: a plain step costs ~1–3 µs and a clock read ~50 ns, but a step
 * of a struct logger with `enableMemory` over 100 KiB of memory costs ~0.3 ms.
 */
const CHECK_EVERY = 8;
/**
 * Longest slice of a trace between two turns of the event loop: other requests wait about this long. A turn costs
 * ~10 µs (measured with bench/trace.ts: under 1% of a struct-logger trace).
 */
const SLICE_MS = 5;

/** Whether the interpreter's wrapper is installed (call-deadline.ts), once its install has settled. */
let wrapperInstalled: boolean | undefined;
void callDeadlineInstalled.then((ok) => {
  wrapperInstalled = ok;
});

const CALL_OPS: ReadonlySet<string> = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL', 'CREATE', 'CREATE2']);
const CALL_ONLY: ReadonlySet<FrameType> = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL']);
/** Gas added to a value-carrying CALL / CALLCODE for the callee, free to the caller (every fork since Frontier). */
const CALL_STIPEND = 2300n;
const EMPTY = new Uint8Array(0);

/** The deadline of a whole request (several transactions of a block share it). */
export interface Deadline {
  readonly at: number;
  readonly limitMs: number;
  readonly source: string;
}

export function deadlineOf(limits: TraceLimits | undefined): Deadline | undefined {
  const ms = limits?.timeoutMs ?? 0;
  if (ms <= 0) return undefined;
  return { at: performance.now() + ms, limitMs: ms, source: limits?.timeoutSource ?? 'timeout' };
}

export function timedOut(deadline: Deadline): TraceLimitError {
  return new TraceLimitError(
    'timeout',
    deadline.limitMs,
    `execution timeout (${deadline.limitMs} ms, ${deadline.source})`,
  );
}

/** Left-pads a stack word's low 20 bytes into an address. */
export function addressFromWord(word: bigint): Uint8Array {
  const out = new Uint8Array(20);
  let v = word & ((1n << 160n) - 1n);
  for (let i = 19; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

export function wordBytes(word: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let v = word;
  for (let i = 31; i >= 0 && v > 0n; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** A LOG0…LOG4 opcode's log, for tracers that collect logs; nothing while its operands are short (it then fails). */
function logOf(
  tracer: Tracer,
  code: number,
  stack: readonly bigint[],
  memory: Uint8Array,
  address: Uint8Array,
  depth: number,
): void {
  const count = code - 0xa0;
  if (tracer.log === undefined || stack.length < 2 + count) return;
  const top = stack.length - 1;
  const topics: Uint8Array[] = [];
  for (let i = 0; i < count; i++) topics.push(wordBytes(stack[top - 2 - i]!));
  tracer.log({ address, topics, data: memorySlice(memory, stack[top]!, stack[top - 1]!), depth });
}

/** Bytes [offset, offset + size) of memory, zero past its end (memory grows when the opcode runs). */
export function memorySlice(memory: Uint8Array, offset: bigint, size: bigint): Uint8Array {
  if (size === 0n) return EMPTY;
  const out = new Uint8Array(Number(size));
  const start = Number(offset);
  if (start < memory.length) out.set(memory.subarray(start, Math.min(memory.length, start + out.length)));
  return out;
}

/** One transaction's tracing on one EVM: `attach`, run the transaction, `detach`, then `check`. */
export class TraceSession {
  private readonly frames: FrameEnter[] = [];
  /** Per open frame: the output of the last call it made (geth's returnData). */
  private readonly returnData: Uint8Array[] = [];
  private lastOp = '';
  /** The probe's path: the frame type the last opcode opens, if it opens one. */
  private lastFrameOp: FrameType | undefined;
  /** The probe's path: the next step takes a turn of the event loop first. */
  private turnDue = false;
  private probed = false;
  private readonly probedStep = new ProbedStep();
  /** The account whose code ran the last step: the `from` of a frame it opens (msg.caller is not, for DELEGATECALL). */
  private lastAddress: Uint8Array = new Uint8Array(20);
  private lastOpByte = 0;
  private countdown = CHECK_EVERY;
  private sliceStart = performance.now();
  /** A cap passed or a tracer failed where the listener could not throw (after an await). */
  private failure: unknown;
  private detachAll: (() => void) | undefined;

  constructor(
    private readonly tracer: Tracer,
    private readonly deadline: Deadline | undefined,
    private readonly budget: TraceBudget,
    private readonly precompiles: ReadonlySet<string>,
  ) {}

  attach(evm: EVM): void {
    // Two parameters: the EVM then awaits the listener until `resume` is called (a promise per opcode).
    const awaited = (e: InterpreterStep, resolve?: (result?: unknown) => void): void => {
      const resume = resolve as () => void;
      if (this.failure !== undefined) throw this.failure;
      if (--this.countdown === 0 && this.sliceOver()) {
        this.settle(
          nextTurn().then(() => this.turnTaken(e)),
          resume,
        );
        return;
      }
      const pending = this.guarded(e);
      if (pending === undefined) resume();
      else this.settle(pending, resume);
    };
    // A tracer that never reads the state per opcode runs on a plain listener (~30% faster a trace, measured
    // with test/trace's countdown), which hands over to `turn` for the one opcode after a slice ends.
    const plain = (e: InterpreterStep): void => {
      if (this.failure !== undefined) throw this.failure;
      void this.guarded(e);
      if (--this.countdown === 0 && this.sliceOver()) {
        evm.events.off('step', plain);
        evm.events.on('step', turn);
      }
    };
    const turn = (e: InterpreterStep, resolve?: (result?: unknown) => void): void => {
      evm.events.off('step', turn);
      evm.events.on('step', plain);
      this.settle(
        nextTurn().then(() => void this.turnTaken(e)),
        resolve as () => void,
      );
    };
    const step = this.tracer.asyncSteps === true ? awaited : plain;
    const before = (m: Message): void => this.onEnter(m);
    const after = (r: EVMResult): void => this.onExit(r);
    const created = (e: { address: { bytes: Uint8Array } }): void => {
      const top = this.frames[this.frames.length - 1];
      if (top !== undefined) top.to = e.address.bytes;
    };
    evm.events.on('step', step);
    evm.events.on('beforeMessage', before);
    evm.events.on('afterMessage', after);
    evm.events.on('newContract', created);
    this.detachAll = () => {
      for (const listener of [awaited, plain, turn]) evm.events.off('step', listener);
      evm.events.off('beforeMessage', before);
      evm.events.off('afterMessage', after);
      evm.events.off('newContract', created);
    };
  }

  /**
   * As `attach`, with the opcodes observed by a step probe (exec/step-probe.ts) instead of the `step` event: the
   * same calls of the tracer, read from the interpreter without the event's copies; false (nothing attached) where
   * probes cannot be set.
   */
  async attachProbe(evm: EVM): Promise<boolean> {
    const awaitsAll = this.tracer.asyncSteps === true && this.tracer.awaitsOp === undefined;
    const probe: StepProbe = {
      awaits: (op) => this.turnDue || awaitsAll || (this.tracer.awaitsOp?.(op) ?? false),
      step: (interpreter, fee, gasLeft, words) => this.probeStep(interpreter, fee, gasLeft, words),
    };
    if (!(await setStepProbe(evm, probe))) return false;
    this.listenFrames(evm, () => clearStepProbe(evm));
    return true;
  }

  /**
   * For a tracer without `step`: as `attachProbe`, with an op probe (exec/op-probe.ts) that sees only the opcodes
   * the tracer's frames, logs and errors need, so every other step runs as an untraced one; false (nothing
   * attached) where the interpreter's wrapper is not installed.
   */
  attachFrames(evm: EVM): boolean | Promise<boolean> {
    if (this.tracer.step !== undefined) return false;
    // Known after the first trace: then no promise and no await (two turns of the microtasks a trace).
    if (wrapperInstalled === undefined) return callDeadlineInstalled.then((ok) => ok && this.attachFrames(evm));
    if (!wrapperInstalled) return false;
    const ops = probedOps(evm, this.tracer);
    const probe: OpProbe = {
      ops,
      countdown: FRAMES_CHECK_EVERY,
      before: (interpreter) => {
        if (this.failure !== undefined) throw this.failure;
        const rs = interpreter._runState;
        if (ops[rs.opCode] === 1) this.record(() => this.probed1(interpreter, 0n, rs.gasLeft, rs.memoryWordCount));
        if (probe.countdown > 0) return undefined;
        probe.countdown = FRAMES_CHECK_EVERY;
        if (!this.sliceOver()) return undefined;
        return nextTurn().then(() => {
          this.sliceStart = performance.now();
        });
      },
    };
    setOpProbe(evm, probe);
    this.listenFrames(evm, () => clearOpProbe(evm));
    return true;
  }

  private listenFrames(evm: EVM, unset: () => void): void {
    this.probed = true;
    const before = (m: Message): void => this.onEnter(m);
    const after = (r: EVMResult): void => this.onExit(r);
    const created = (e: { address: { bytes: Uint8Array } }): void => {
      const top = this.frames[this.frames.length - 1];
      if (top !== undefined) top.to = e.address.bytes;
    };
    evm.events.on('beforeMessage', before);
    evm.events.on('afterMessage', after);
    evm.events.on('newContract', created);
    this.detachAll = () => {
      unset();
      evm.events.off('beforeMessage', before);
      evm.events.off('afterMessage', after);
      evm.events.off('newContract', created);
    };
  }

  detach(): void {
    this.detachAll?.();
    this.detachAll = undefined;
  }

  /** Throws what stopped the trace, if anything did. */
  check(): void {
    if (this.failure !== undefined) throw this.failure;
    this.checkCaps();
  }

  private checkCaps(): void {
    if (this.deadline !== undefined && performance.now() > this.deadline.at) throw timedOut(this.deadline);
    this.budget.check(heldFor(this.tracer.sizeEstimate?.() ?? 0));
  }

  /** Every CHECK_EVERY steps: the caps, then whether the slice has run long enough to give the event loop a turn. */
  private sliceOver(): boolean {
    this.countdown = CHECK_EVERY;
    // Not through `record`: its closure would be an allocation every few steps.
    try {
      this.checkCaps();
    } catch (err) {
      this.failure ??= err;
      throw err;
    }
    return performance.now() - this.sliceStart >= SLICE_MS;
  }

  private turnTaken(e: InterpreterStep): Promise<void> | undefined {
    this.sliceStart = performance.now();
    return this.guarded(e);
  }

  /** The step, with a throw kept as the session's failure as well (a block's runner swallows it). */
  private guarded(e: InterpreterStep): Promise<void> | undefined {
    return this.record(() => this.onStep(e));
  }

  private record<T>(work: () => T): T {
    try {
      return work();
    } catch (err) {
      this.failure ??= err;
      throw err;
    }
  }

  private settle(pending: Promise<void>, resume: () => void): void {
    pending.then(resume, (err: unknown) => {
      this.failure = err;
      resume();
    });
  }

  private probeStep(
    interpreter: InterpreterLike,
    fee: bigint,
    gasLeft: bigint,
    words: bigint,
  ): Promise<void> | undefined {
    if (this.failure !== undefined) throw this.failure;
    if (this.turnDue) return this.probedAfterTurn(interpreter, fee, gasLeft, words);
    let pending: Promise<void> | undefined;
    try {
      pending = this.probed1(interpreter, fee, gasLeft, words);
    } catch (err) {
      this.failure ??= err;
      throw err;
    }
    if (--this.countdown === 0 && this.sliceOver()) this.turnDue = true;
    // A failure after an await (a state read of an SLOAD's entry) is kept too, as `settle` keeps it on the event
    // path: a block's runner reports the throw as a transaction that does not apply, and `check` throws the cause.
    return pending === undefined ? undefined : pending.catch(this.keepFailure);
  }

  /**
   * The step after a slice ended, once the event loop had its turn. A method of its own: a closure in probeStep
   * would make every step allocate its context (~70 bytes an opcode, measured with a heap sampling of a trace).
   */
  private probedAfterTurn(interpreter: InterpreterLike, fee: bigint, gasLeft: bigint, words: bigint): Promise<void> {
    this.turnDue = false;
    return nextTurn()
      .then(() => {
        this.sliceStart = performance.now();
        return this.probed1(interpreter, fee, gasLeft, words);
      })
      .catch(this.keepFailure);
  }

  private readonly keepFailure = (err: unknown): never => {
    this.failure ??= err;
    throw err;
  };

  /** One opcode seen by the probe: what `onStep` does with the event, read from the interpreter. */
  private probed1(
    interpreter: InterpreterLike,
    fee: bigint,
    gasLeft: bigint,
    words: bigint,
  ): Promise<void> | undefined {
    const { tracer } = this;
    const code = interpreter._runState.opCode;
    const address = interpreter._env.address.bytes;
    this.lastOpByte = code;
    this.lastFrameOp = code >= 0xf0 ? FRAME_OF_OP.get(code) : undefined;
    this.lastAddress = address;
    const wantsLog = code >= 0xa0 && code <= 0xa4 && tracer.log !== undefined;
    const wantsSelfdestruct = code === 0xff && tracer.enter !== undefined;
    if (tracer.step === undefined && !wantsLog && !wantsSelfdestruct) return undefined;
    const returnData = this.returnData[this.returnData.length - 1] ?? EMPTY;
    const s = this.probedStep.fill(interpreter, fee, gasLeft, words, returnData);
    if (wantsLog) logOf(tracer, code, s.stack, s.memory, address, s.depth);
    const stepped = tracer.step?.(s);
    if (wantsSelfdestruct && s.stack.length >= 1) {
      this.selfdestructOf(s.depth, address, addressFromWord(s.stack[s.stack.length - 1]), s.balance);
    }
    return stepped === undefined ? undefined : stepped;
  }

  private onStep(e: InterpreterStep): Promise<void> | undefined {
    const { tracer } = this;
    const name = e.opcode.name;
    const code = e.opcode.code;
    this.lastOp = name;
    this.lastOpByte = code;
    this.lastAddress = e.address.bytes;
    const stack = e.stack;
    const top = stack.length - 1;
    if (code >= 0xa0 && code <= 0xa4) logOf(tracer, code, stack, e.memory, e.address.bytes, e.depth + 1);
    const returnData = this.returnData[this.returnData.length - 1] ?? EMPTY;
    const stepped = tracer.step?.({
      pc: e.pc,
      op: code,
      opName: name,
      gas: e.gasLeft,
      gasCost: BigInt(e.opcode.dynamicFee ?? BigInt(e.opcode.fee)),
      refund: e.gasRefund,
      depth: e.depth + 1,
      stack,
      memory: e.memory,
      address: e.address.bytes,
      returnData,
      state: e.stateManager,
    });
    if (code === 0xff && tracer.enter !== undefined && stack.length >= 1) {
      this.selfdestructFrame(e, addressFromWord(stack[top]));
    }
    return stepped === undefined ? undefined : stepped;
  }

  /**
   * geth reports SELFDESTRUCT as a frame of its own, carrying the balance the beneficiary receives: the EVM pays
   * out the balance its frame holds for the contract (`e.account`), so no state read is needed.
   */
  private selfdestructFrame(e: InterpreterStep, beneficiary: Uint8Array): void {
    this.selfdestructOf(e.depth + 1, e.address.bytes, beneficiary, e.account.balance);
  }

  private selfdestructOf(depth: number, from: Uint8Array, beneficiary: Uint8Array, value: bigint): void {
    this.tracer.enter?.({
      type: 'SELFDESTRUCT',
      depth,
      from,
      to: beneficiary,
      input: EMPTY,
      gas: 0n,
      value,
      precompile: false,
    });
    this.tracer.exit?.({ depth, output: EMPTY, gasUsed: 0n, error: undefined, reverted: false });
  }

  private onEnter(m: Message): void {
    const depth = m.depth;
    let type: FrameType;
    if (depth === 0) type = m.to === undefined ? 'CREATE' : 'CALL';
    else if (this.probed) type = this.lastFrameOp ?? (m.to === undefined ? 'CREATE' : 'CALL');
    else type = CALL_OPS.has(this.lastOp) ? (this.lastOp as FrameType) : m.to === undefined ? 'CREATE' : 'CALL';
    // DELEGATECALL and CALLCODE run the code at codeAddress in the caller's account; geth names the code's account.
    const to = m.to === undefined ? undefined : m.codeAddress.bytes;
    const frame: FrameEnter = {
      type,
      depth,
      from: depth === 0 ? m.caller.bytes : this.lastAddress,
      to,
      // A copy: the message's data is a view of the caller's memory, which later steps may overwrite.
      input: m.data.slice(),
      gas: m.gasLimit,
      value: type === 'STATICCALL' ? undefined : m.value,
      precompile: to !== undefined && this.precompiles.has(bytesToUnprefixedHex(to)),
    };
    if (depth > 0 && this.tracer.callGas !== undefined && CALL_ONLY.has(type)) {
      const stipend = (type === 'CALL' || type === 'CALLCODE') && m.value > 0n ? CALL_STIPEND : 0n;
      this.tracer.callGas(m.gasLimit - stipend);
    }
    this.frames.push(frame);
    this.returnData.push(EMPTY);
    this.tracer.enter?.(frame);
  }

  private onExit(r: EVMResult): void {
    const frame = this.frames.pop();
    this.returnData.pop();
    const exec = r.execResult;
    const output = exec.returnValue ?? EMPTY;
    if (this.returnData.length > 0) this.returnData[this.returnData.length - 1] = output;
    if (frame !== undefined && r.createdAddress !== undefined && frame.to === undefined)
      frame.to = r.createdAddress.bytes;
    const err = exec.exceptionError?.error;
    this.tracer.exit?.({
      depth: frame?.depth ?? 0,
      output,
      gasUsed: exec.executionGasUsed,
      error: err === undefined ? undefined : gethError(err, this.lastOpByte),
      reverted: err === 'revert',
    });
  }
}

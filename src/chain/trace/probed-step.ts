/**
 * The `StepInfo` a step probe (exec/step-probe.ts) hands to a tracer: one object per trace, refilled for every
 * opcode (a StepInfo is read during `step`, never kept), whose stack and memory are read from the interpreter only
 * when a tracer asks for them: the struct logger wants the stack, rarely the memory; callTracer neither.
 */
import type { InterpreterLike } from '../exec/sync-step.js';
import type { StepInfo } from './types.js';

const EMPTY = new Uint8Array(0);

export class ProbedStep implements StepInfo {
  pc = 0;
  op = 0;
  opName = '';
  gas = 0n;
  gasCost = 0n;
  refund = 0n;
  depth = 0;
  address: Uint8Array = EMPTY;
  returnData: Uint8Array = EMPTY;
  state: StepInfo['state'] = undefined as unknown as StepInfo['state'];
  private interpreter: InterpreterLike | undefined;
  private words = 0n;
  private stackCopy: bigint[] | undefined;
  private memoryView: Uint8Array | undefined;

  /** The opcode at the interpreter's program counter, before it runs (see StepProbe.step). */
  fill(interpreter: InterpreterLike, fee: bigint, gasLeft: bigint, words: bigint, returnData: Uint8Array): this {
    const rs = interpreter._runState;
    const env = interpreter._env;
    this.interpreter = interpreter;
    this.pc = rs.programCounter;
    this.op = rs.opCode;
    this.opName = interpreter._evm._opcodeMap[rs.opCode]!.opcodeInfo.fullName;
    this.gas = gasLeft;
    this.gasCost = fee;
    this.refund = rs.gasRefund;
    this.depth = env.depth + 1;
    this.address = env.address.bytes;
    this.returnData = returnData;
    this.state = rs.stateManager as StepInfo['state'];
    this.words = words;
    this.stackCopy = undefined;
    this.memoryView = undefined;
    return this;
  }

  /** Bottom first (a copy, made on first read). */
  get stack(): readonly bigint[] {
    this.stackCopy ??= this.interpreter!._runState.stack.getStack();
    return this.stackCopy;
  }

  /** The interpreter's stack array, of which the first `stackLength` words are the stack (no copy). */
  get stackStore(): readonly bigint[] {
    return this.interpreter!._runState.stack._store;
  }

  get stackLength(): number {
    return this.interpreter!._runState.stack._len;
  }

  /** Memory before the opcode (a view of the interpreter's, not copied). */
  get memory(): Uint8Array {
    this.memoryView ??= this.interpreter!._runState.memory._store.subarray(0, Number(this.words) * 32);
    return this.memoryView;
  }

  /** The balance of the account the code runs in (SELFDESTRUCT pays it out). */
  get balance(): bigint {
    return this.interpreter!._env.contract.balance;
  }
}

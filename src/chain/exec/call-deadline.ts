/**
 * A wall-clock limit on one message call (eth_call, eth_estimateGas), as geth's `--rpc.evmtimeout`.
 *
 * The EVM runs on the node's one thread, one `await` per opcode that resolves as a microtask: no timer can
 * fire while a call runs, so the call has to check the clock itself. @ethereumjs/evm's `step` event would do,
 * but with a listener the interpreter builds an event object (stack copy, memory, gas) for every opcode. Here
 * the interpreter's `runStep` is wrapped once (the module is loaded by file, as jump-analysis-cache.ts does):
 * an EVM carrying a deadline counts its steps down and reads the clock once every `CHECK_EVERY` steps; one
 * without (block execution, a node with the limit off) pays one property read per step. Past the deadline
 * the step throws `CallTimeoutError`, which is not an EVM error, so no frame catches it: it leaves `runTx`,
 * and the VM it ran on is discarded (CallExecutor never reuses a VM that threw).
 *
 * The same wrapper calls an EVM's op probe (op-probe.ts: a tracer of frames) before each step. The same install
 * replaces the interpreter's frame loop for legacy code by one that runs the steps needing no await
 * without a promise (sync-step.ts); with a deadline every step still passes the check (call-timeout.ts), here or in
 * that loop's lane, which checks the deadline and the op probe itself and gives its other steps to the library's
 * `runStep` unwrapped (so no step is counted twice).
 *
 * Measured with bench/eth-call.ts (see the operating guide, codegen/docs/guides/operating.md, "Limits"). If a future version moves `runStep`,
 * nothing is installed and `callDeadlineInstalled` resolves to false (calls then run unbounded in time).
 */
import { countStep, deadlineOf } from './call-timeout.js';
import { interpreterPrototype } from './evm-interpreter.js';
import { opProbeOf } from './op-probe.js';
import { coversFrame, type FrameOutcome, type InterpreterLike, runLegacyCode, runStepInline } from './sync-step.js';

export { CallTimeoutError, clearDeadline, setDeadline } from './call-timeout.js';

type StepEntry = Parameters<typeof runStepInline>[1];
interface InterpreterProto {
  runStep(this: InterpreterLike, opcode?: StepEntry): Promise<void> | undefined;
  run(this: InterpreterLike, code: Uint8Array, opts?: { pc?: number }): Promise<FrameOutcome>;
}

async function install(): Promise<boolean> {
  const proto = await interpreterPrototype<InterpreterProto>();
  const original = proto?.runStep;
  if (proto === undefined || typeof original !== 'function') return false;
  proto.runStep = function (this: InterpreterLike, opcode?: StepEntry): Promise<void> | undefined {
    const deadline = deadlineOf(this._evm);
    if (deadline !== undefined) countStep(deadline);
    // A frames-only tracer's probe (op-probe.ts) sees its opcodes first, and every so many steps any opcode; it may
    // ask for a turn of the event loop.
    const probe = opProbeOf(this._evm);
    if (probe !== undefined && (probe.ops[this._runState.opCode] === 1 || --probe.countdown <= 0)) {
      const pending = probe.before(this);
      if (pending !== undefined)
        return pending.then(() => (runStepInline(this, opcode) ? undefined : original.call(this, opcode)));
    }
    if (runStepInline(this, opcode)) return undefined;
    return original.call(this, opcode);
  };
  const originalRun = proto.run;
  if (typeof originalRun === 'function')
    proto.run = function (this: InterpreterLike, code: Uint8Array, opts: { pc?: number } = {}): Promise<FrameOutcome> {
      if (!coversFrame(this, code)) return originalRun.call(this, code, opts);
      return runLegacyCode(this, code, opts.pc, original);
    };
  return true;
}

/** Resolves to whether the check is in place; installs once, on first import. */
export const callDeadlineInstalled: Promise<boolean> = install();

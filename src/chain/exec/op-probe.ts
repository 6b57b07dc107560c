/**
 * An observer of a few opcodes, for tracers that want frames and not steps (callTracer, flatCallTracer,
 * 4byteTracer, otsTracer, the noop tracer).
 *
 * A step probe (step-probe.ts) is called for every opcode, and while one is set every step pays for it: the EVM has
 * a `step` listener, sync-step.ts asks the probe about each opcode and hands it the interpreter. A tracer of frames
 * learns what it needs from the EVM's message events and from a handful of opcodes: which CALL-family or CREATE
 * opcode opened a frame and in which account, a LOG's topics and data, a SELFDESTRUCT's beneficiary, an invalid
 * opcode's byte. An op probe is called before those opcodes only (a flag per opcode byte), from the interpreter's
 * `runStep` wrapper (call-deadline.ts), before the step's gas is charged, as a step probe is; every other step runs
 * as an untraced one (an eth_call's): inline, without a listener, on the VM's lean frames where it has them.
 *
 * The wrapper also counts the steps down for the probe: every so many `before` is called whatever the opcode, and may
 * check the trace's caps (and throw) or ask for a turn of the event loop (return a promise, which the wrapper awaits
 * before the step), so a long trace neither runs past its deadline nor stalls the node.
 */
import type { InterpreterLike } from './sync-step.js';

export interface OpProbe {
  /**
   * The opcodes `before` is called for (a flag per opcode byte); for the others the wrapper only counts the step
   * down, so an untraced step costs a byte read and a decrement, not a call.
   */
  readonly ops: Uint8Array;
  /** Steps left until `before` is called whatever the opcode (the probe resets it there). */
  countdown: number;
  /**
   * Before a step of the EVM it is set on whose opcode is flagged in `ops`, or whose countdown reached 0; the opcode
   * at the program counter not yet charged for. A promise delays the step until it settles (only for a turn of the
   * event loop: the step then runs as it would have).
   */
  before(interpreter: InterpreterLike): Promise<void> | undefined;
}

const PROBE = '_svcOpProbe';
type ProbedEvm = { [PROBE]?: OpProbe | undefined };

export function opProbeOf(evm: object): OpProbe | undefined {
  return (evm as ProbedEvm)[PROBE];
}

/** Sets `probe` on `evm` until `clearOpProbe` (the interpreter's wrapper must be installed: call-deadline.ts). */
export function setOpProbe(evm: object, probe: OpProbe): void {
  (evm as ProbedEvm)[PROBE] = probe;
}

export function clearOpProbe(evm: object): void {
  const target = evm as ProbedEvm;
  if (target[PROBE] !== undefined) target[PROBE] = undefined;
}

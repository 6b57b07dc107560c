/**
 * A per-opcode observer for tracing without @ethereumjs's `step` event.
 *
 * With a `step` listener the library builds an event object for every opcode (a copy of the stack, a copy of the
 * memory, opcode info), emits it through a promise per listener, and every opcode then takes the library's async
 * `runStep` (sync-step.ts runs none inline). Profiled on a 1,000-opcode countdown, that was most of a callTracer's
 * trace, which does not even read the steps' values.
 *
 * A probe set on an EVM is called instead, with the interpreter itself (its run state is read, nothing copied):
 * - from sync-step.ts for the opcodes it runs inline, before their fixed gas is charged, as the library orders it;
 * - from the library's `_runStepHook` (wrapped here) for the others, where the dynamic gas is known.
 * The library calls its hook only while `step` has a listener, so setting a probe also adds a listener, which the
 * wrapped hook never calls. A probe may return a promise (a state read, a turn of the event loop) only for an opcode
 * it said `awaits` (those never run inline, and the library awaits its hook).
 */
import { interpreterPrototype } from './evm-interpreter.js';
import type { InterpreterLike } from './sync-step.js';

export interface StepProbe {
  /** True when the probe's step of `op` may return a promise (checked before each opcode). */
  awaits(op: number): boolean;
  /**
   * Before the opcode at the program counter runs: `fee` is what it will be charged (fixed or dynamic), `gasLeft`
   * the gas before it, `memoryWords` the memory's size in words before it.
   */
  step(interpreter: InterpreterLike, fee: bigint, gasLeft: bigint, memoryWords: bigint): Promise<void> | undefined;
}

const PROBE = '_svcStepProbe';
type ProbedEvm = {
  [PROBE]?: { readonly probe: StepProbe; readonly listener: () => void };
  readonly events: { on(event: 'step', l: () => void): void; off(event: 'step', l: () => void): void };
};

/** The probe set on `evm`, if any. */
export function stepProbeOf(evm: object): StepProbe | undefined {
  return (evm as ProbedEvm)[PROBE]?.probe;
}

/** Sets `probe` on `evm` until `clearStepProbe`; resolves false where the library's hook could not be wrapped. */
export async function setStepProbe(evm: object, probe: StepProbe): Promise<boolean> {
  if (!(await stepProbeInstalled)) return false;
  const target = evm as ProbedEvm;
  clearStepProbe(evm);
  const listener = (): void => {
    throw new Error('a probed EVM emitted step');
  };
  target[PROBE] = { probe, listener };
  target.events.on('step', listener);
  return true;
}

export function clearStepProbe(evm: object): void {
  const target = evm as ProbedEvm;
  const set = target[PROBE];
  if (set === undefined) return;
  target.events.off('step', set.listener);
  target[PROBE] = undefined;
}

type HookProto = {
  _runStepHook(this: InterpreterLike, fee: bigint, gasLeft: bigint, memoryWords: bigint): Promise<void> | undefined;
};

async function install(): Promise<boolean> {
  const proto = await interpreterPrototype<HookProto>();
  const original = proto?._runStepHook;
  if (proto === undefined || typeof original !== 'function') return false;
  proto._runStepHook = function (this: InterpreterLike, fee: bigint, gasLeft: bigint, memoryWords: bigint) {
    const probe = stepProbeOf(this._evm);
    if (probe === undefined) return original.call(this, fee, gasLeft, memoryWords);
    return probe.step(this, fee, gasLeft, memoryWords);
  };
  return true;
}

/** Resolves to whether probes can be set; installs once, on first import. */
export const stepProbeInstalled: Promise<boolean> = install();

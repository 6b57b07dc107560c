/**
 * The deadline of one message call (eth_call, eth_estimateGas) and its check, apart from the interpreter's wrapper
 * that installs it (call-deadline.ts, where the why is told): the lean frame loop (sync-step.ts) checks it too, for
 * the steps it runs without the wrapper.
 */
import { performance } from 'node:perf_hooks';

/** Steps between two clock reads: a step costs ~0.1–1 µs, so the limit is overshot by well under a millisecond. */
const CHECK_EVERY = 1024;

/** A call ran past its deadline. */
export class CallTimeoutError extends Error {
  constructor(readonly limitMs: number) {
    super(`execution aborted (timeout = ${limitMs} ms)`);
    this.name = 'CallTimeoutError';
  }
}

/** Set on an EVM for the duration of one call. */
export interface Deadline {
  /** `performance.now()` after which the call is aborted. */
  readonly at: number;
  readonly limitMs: number;
  countdown: number;
}

const DEADLINE = '_svcCallDeadline';
type EvmWithDeadline = { [DEADLINE]?: Deadline | undefined };

/** Gives the calls run on `evm` from now on until `clearDeadline` the deadline `at` (performance.now() ms). */
export function setDeadline(evm: object, at: number, limitMs: number): void {
  (evm as EvmWithDeadline)[DEADLINE] = { at, limitMs, countdown: CHECK_EVERY };
}

export function clearDeadline(evm: object): void {
  const target = evm as EvmWithDeadline;
  if (target[DEADLINE] !== undefined) target[DEADLINE] = undefined;
}

export function deadlineOf(evm: object): Deadline | undefined {
  return (evm as EvmWithDeadline)[DEADLINE];
}

/** Counts one step down; every `CHECK_EVERY` steps reads the clock and throws `CallTimeoutError` past the deadline. */
export function countStep(deadline: Deadline): void {
  if (--deadline.countdown !== 0) return;
  deadline.countdown = CHECK_EVERY;
  if (performance.now() > deadline.at) throw new CallTimeoutError(deadline.limitMs);
}

/**
 * One transaction run under a tracer: the tracer sees the state before it (`txStart`), the EVM's events while it
 * runs (hooks.ts), and its outcome with the state after it (`txEnd`). The caller supplies the run itself (a block
 * replay's `BlockRunner.apply`, or runTx for a call).
 */
import type { EVM } from '@ethereumjs/evm';
import type { VM } from '@ethereumjs/vm';
import type { TraceBudget } from './budget.js';
import { TraceSession, type Deadline } from './hooks.js';
import { newTracer, type TraceResult } from './tracers.js';
import type { TraceOptions, Tracer, TxStart } from './types.js';

export interface RunOutcome {
  readonly gasUsed: bigint;
  readonly failed: boolean;
}

const EMPTY = new Uint8Array(0);

/** The addresses of an EVM's precompiles (fixed by its rules), kept per EVM: a replay's VM serves many traces. */
const precompileSets = new WeakMap<EVM, ReadonlySet<string>>();
function precompilesOf(evm: EVM): ReadonlySet<string> {
  let set = precompileSets.get(evm);
  if (set === undefined) precompileSets.set(evm, (set = new Set(evm.precompiles.keys())));
  return set;
}

export async function runTraced(
  vm: VM,
  start: Omit<TxStart, 'state'>,
  opts: TraceOptions,
  deadline: Deadline | undefined,
  budget: TraceBudget,
  run: () => Promise<RunOutcome>,
): Promise<TraceResult> {
  const tracer = newTracer(opts, budget);
  const events: Tracer = tracer;
  const state = vm.stateManager;
  // Awaited only when it is async (most tracers' are not): an await of nothing still costs a turn of the microtasks.
  const started = events.txStart?.({ ...start, state });
  if (started !== undefined) await started;
  const evm = vm.evm as EVM;
  const session = new TraceSession(tracer, deadline, budget, precompilesOf(evm));
  let returnValue: Uint8Array = EMPTY;
  const afterTx = (e: { execResult: { returnValue: Uint8Array } }): void => {
    returnValue = e.execResult.returnValue;
  };
  // Frames-only tracers run untraced steps (attachFrames); the others see each step through a probe.
  let attached = false;
  if (opts.generic !== true) {
    const frames = session.attachFrames(evm);
    attached = typeof frames === 'boolean' ? frames : await frames;
    if (!attached) attached = await session.attachProbe(evm);
  }
  if (!attached) session.attach(evm);
  vm.events.on('afterTx', afterTx);
  let outcome: RunOutcome;
  try {
    outcome = await run();
  } catch (err) {
    // A cap the trace passed is why the run failed, whatever the runner made of it (a block's runner reports any
    // throw from runTx as a transaction that does not apply).
    session.check();
    throw err;
  } finally {
    session.detach();
    vm.events.off('afterTx', afterTx);
  }
  // A cap or a tracer failure surfaces here even where the run swallowed it as a failed transaction.
  session.check();
  const ended = events.txEnd?.({ ...outcome, returnValue, state });
  if (ended !== undefined) await ended;
  session.check();
  budget.charge(events.sizeEstimate?.() ?? 0);
  return tracer.result();
}

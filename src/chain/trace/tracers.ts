/**
 * A new tracer for one transaction, by name (undefined = the struct logger) and geth's tracerConfig; the struct logger
 * charges the request's budget as it records (the others report their size to the hook layer, hooks.ts).
 */
// Each named tracer registers itself when its module loads (registry.ts); the order of these imports is the order
// the spec lists them in (`npm run codegen` composes GethTraceConfig's tracer enum and tracerConfig from it).
import './call-tracer.js';
import './flat-call-tracer.js';
import './prestate-tracer.js';
import './four-byte-tracer.js';
import './noop-tracer.js';
import './ots-tracer.js';
import './opcode-gas-tracer.js';
import type { CallTracer } from './call-tracer.js';
import type { FlatCallTracer } from './flat-call-tracer.js';
import type { FourByteTracer } from './four-byte-tracer.js';
import type { NoopTracer } from './noop-tracer.js';
import type { OpcodeGasTracer } from './opcode-gas-tracer.js';
import type { OtsTracer } from './ots-tracer.js';
import type { PrestateTracer } from './prestate-tracer.js';
import type { TraceBudget } from './budget.js';
import { tracerNamed } from './registry.js';
import { StructLogText } from './struct-log-text.js';
import { StructLogger } from './struct-logger.js';
import type { TraceOptions } from './types.js';

/** Every tracer the engine runs; a trace's answer is the `result()` of one of them. */
export type EngineTracer =
  | StructLogger
  | StructLogText
  | CallTracer
  | FlatCallTracer
  | PrestateTracer
  | FourByteTracer
  | NoopTracer
  | OtsTracer
  | OpcodeGasTracer;

/** A transaction's trace as JSON, in the shape of the tracer that made it (geth's, or Otterscan's for otsTracer). */
export type TraceResult = ReturnType<EngineTracer['result']>;

export function newTracer(opts: TraceOptions, budget: TraceBudget): EngineTracer {
  switch (opts.tracer) {
    case undefined:
      if (opts.jsonText === true && opts.generic !== true)
        return new StructLogText(opts.logger ?? {}, opts.limits?.maxStructLogs ?? 0, budget);
      return new StructLogger(opts.logger ?? {}, opts.limits?.maxStructLogs ?? 0, budget);
    default:
      // Every registration creates one of EngineTracer's classes (the registry's contract is the Tracer events).
      return tracerNamed(opts.tracer).create(opts.tracerConfig) as EngineTracer;
  }
}

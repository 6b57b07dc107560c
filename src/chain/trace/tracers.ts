/**
 * A new tracer for one transaction, by name (undefined = the struct logger) and geth's tracerConfig; the struct logger
 * charges the request's budget as it records (the others report their size to the hook layer, hooks.ts).
 */
import { CallTracer } from './call-tracer.js';
import { FlatCallTracer } from './flat-call-tracer.js';
import { FourByteTracer } from './four-byte-tracer.js';
import { NoopTracer } from './noop-tracer.js';
import { OtsTracer } from './ots-tracer.js';
import { PrestateTracer } from './prestate-tracer.js';
import type { TraceBudget } from './budget.js';
import { StructLogger } from './struct-logger.js';
import type { TraceOptions } from './types.js';

/** Every tracer the engine runs; a trace's answer is the `result()` of one of them. */
export type EngineTracer =
  | StructLogger
  | CallTracer
  | FlatCallTracer
  | PrestateTracer
  | FourByteTracer
  | NoopTracer
  | OtsTracer;

/** A transaction's trace as JSON, in the shape of the tracer that made it (geth's, or Otterscan's for otsTracer). */
export type TraceResult = ReturnType<EngineTracer['result']>;

const flag = (config: TraceOptions['tracerConfig'], key: string): boolean => config?.[key] === true;

export function newTracer(opts: TraceOptions, budget: TraceBudget): EngineTracer {
  const config = opts.tracerConfig;
  switch (opts.tracer) {
    case undefined:
      return new StructLogger(opts.logger ?? {}, opts.limits?.maxStructLogs ?? 0, budget);
    case 'callTracer':
      return new CallTracer({ onlyTopCall: flag(config, 'onlyTopCall'), withLog: flag(config, 'withLog') });
    case 'flatCallTracer':
      return new FlatCallTracer({
        convertParityErrors: flag(config, 'convertParityErrors'),
        includePrecompiles: flag(config, 'includePrecompiles'),
      });
    case 'prestateTracer':
      return new PrestateTracer({ diffMode: flag(config, 'diffMode') });
    case '4byteTracer':
      return new FourByteTracer();
    case 'noopTracer':
      return new NoopTracer();
    case 'otsTracer':
      return new OtsTracer();
  }
}

/** A new tracer for one transaction, by name (undefined = the struct logger) and geth's tracerConfig. */
// Each named tracer registers itself when its module loads (registry.ts); the order of these imports is the order
// the spec lists them in (`npm run codegen` composes GethTraceConfig's tracer enum and tracerConfig from it).
import './call-tracer.js';
import './flat-call-tracer.js';
import './prestate-tracer.js';
import './four-byte-tracer.js';
import './noop-tracer.js';
import './ots-tracer.js';
import { tracerNamed } from './registry.js';
import { StructLogger } from './struct-logger.js';
import type { TraceOptions, Tracer } from './types.js';

export function newTracer(opts: TraceOptions): Tracer {
  const config = opts.tracerConfig;
  switch (opts.tracer) {
    case undefined:
      return new StructLogger(opts.logger ?? {}, opts.limits?.maxStructLogs ?? 0, opts.limits?.maxResultBytes ?? 0);
    default:
      return tracerNamed(opts.tracer).create(config);
  }
}

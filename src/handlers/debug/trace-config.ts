/**
 * geth's TraceConfig → the engine's trace options under the node's caps (a trace's errors are answered by
 * ../trace-answer.ts, as for every tracing method). The tracer name was checked by the validator (an enum: an
 * unknown name or a JavaScript tracer body is -32602 listing the tracers). The request's `timeout` can only shorten
 * `network.rpc.debug.trace-timeout`.
 */
import type { TraceOptions } from '../../chain/index.js';
import type { GethTraceConfig } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { invalidParams } from '../../rpc/errors.js';

const GO_UNITS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** A Go duration ("5s", "500ms", "1m30s") in milliseconds. */
export function goDurationMs(text: string): number {
  let total = 0;
  let rest = text;
  while (rest.length > 0) {
    // µ as an escape: a raw one would make its whole bundle chunk two-byte text (bin/bundle.js).
    const m = /^(\d+(?:\.\d+)?)(ns|us|\u00b5s|ms|s|m|h)/.exec(rest);
    if (m === null) throw invalidParams(`invalid params: timeout ${JSON.stringify(text)} is not a duration like "5s"`);
    total += Number(m[1]) * GO_UNITS[m[2]];
    rest = rest.slice(m[0].length);
  }
  return total;
}

/**
 * `jsonText`: the caller sends a struct logger's answer on as JSON text (TraceOptions.jsonText). Built as one object
 * of a fixed shape (an absent field is undefined, which every reader takes as absent): spreads of conditional parts
 * were ~1 % of a callTracer trace's CPU (bench/trace-profile.ts).
 */
export function traceOptionsOf(
  config: GethTraceConfig | undefined,
  ctx: HandlerContext,
  jsonText = false,
): TraceOptions {
  const caps = ctx.node.config.rpc.debug;
  const cfg = config ?? {};
  const asked = cfg.timeout === undefined ? undefined : goDurationMs(cfg.timeout);
  const useAsked = asked !== undefined && (caps.traceTimeoutMs === 0 || asked < caps.traceTimeoutMs);
  return {
    tracer: cfg.tracer,
    tracerConfig: cfg.tracerConfig,
    logger: {
      disableStack: cfg.disableStack === true,
      disableStorage: cfg.disableStorage === true,
      enableMemory: cfg.enableMemory === true,
      enableReturnData: cfg.enableReturnData === true,
      limit: cfg.limit ?? 0,
    },
    limits: {
      timeoutMs: useAsked ? Math.max(1, Math.round(asked)) : caps.traceTimeoutMs,
      timeoutSource: useAsked ? `the request's timeout ${cfg.timeout}` : 'network.rpc.debug.trace-timeout',
      maxStructLogs: caps.maxStructLogs,
      maxResultBytes: caps.maxTraceBytes,
    },
    jsonText,
  };
}

/**
 * Every tracing method (debug_trace*, trace_*, ots_* that replay, anvil_mine_detailed) runs its trace through
 * `tracing`: in one of the process's trace slots (`SvcNode.traceSlots`, network.rpc.debug.max-concurrent-traces,
 * waiting in network.rpc.debug.trace-queue), and with the engine's trace failures answered one way, whatever the
 * method, each naming its limit and setting:
 * - a size cap (struct-log entries, the trace's memory): -32602, the same trace always reaches it (`traceCapCode`);
 * - the time cap: -32005, it may pass on a quieter node;
 * - no slot (the queue full, or a wait past network.rpc.debug.trace-timeout): -32005 with `data.backoffSeconds`,
 *   as the rate limiter answers;
 * - a replay that cannot run, a state not held, or not kept and further than network.rpc.debug.reexec blocks above
 *   a kept one: -32000.
 */
import { TraceBusyError, TraceLimitError, TraceReplayError } from '../chain/index.js';
import { stateReadAnswer } from './block-ref.js';
import type { HandlerContext } from '../rpc/context.js';
import { ErrorCode, RpcError } from '../rpc/errors.js';
import { traceCapCode } from './limits.js';

const SETTING_OF = {
  timeout: undefined,
  structLogs: 'network.rpc.debug.max-struct-logs',
  resultBytes: 'network.rpc.debug.max-trace-bytes',
} as const;

/** How long a refused caller should wait before it asks again: about one trace's time. */
const BACKOFF_SECONDS = 1;

export async function tracing<T>(ctx: HandlerContext, method: string, work: () => Promise<T>): Promise<T> {
  try {
    return await ctx.node.traceSlots.run(work);
  } catch (err) {
    throw answerOf(ctx, method, err);
  }
}

function answerOf(ctx: HandlerContext, method: string, err: unknown): unknown {
  if (err instanceof TraceLimitError) {
    const setting = SETTING_OF[err.cap];
    return new RpcError(traceCapCode(err.cap), `${method}: ${err.message}${setting ? ` (${setting})` : ''}`, {
      cap: err.cap,
      limit: err.limit,
    });
  }
  if (err instanceof TraceBusyError) {
    const { maxConcurrentTraces, traceQueue } = ctx.node.config.rpc.debug;
    return new RpcError(
      ErrorCode.LimitExceeded,
      `${method}: ${err.message} (network.rpc.debug.max-concurrent-traces ${maxConcurrentTraces}, ` +
        `network.rpc.debug.trace-queue ${traceQueue}); try again in ${BACKOFF_SECONDS} s`,
      { limit: maxConcurrentTraces, queued: err.queued, backoffSeconds: BACKOFF_SECONDS },
    );
  }
  if (err instanceof TraceReplayError) return new RpcError(ErrorCode.ServerError, `${method}: ${err.message}`);
  return stateReadAnswer(err);
}

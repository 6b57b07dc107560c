import { traceCall } from '../../chain/trace/index.js';
import type { DebugTraceCallParams, DebugTraceCallResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { engineOf } from '../block-ref.js';
import { callBlock, callMessageOf } from '../eth/call-request.js';
import { answering, traceOptionsOf } from './trace-config.js';

/** Runs a call as eth_call would (same defaults and gas cap) on a block's state and traces it. */
export async function debug_traceCall(
  [request, blockParam, config]: DebugTraceCallParams,
  ctx: HandlerContext,
): Promise<DebugTraceCallResult> {
  const engine = engineOf(ctx);
  // The trace has its own time cap (trace-timeout), not eth_call's.
  const { deadline: _callDeadline, ...msg } = callMessageOf(ctx, request, 'debug_traceCall');
  const block = await callBlock(engine, blockParam);
  const opts = traceOptionsOf(config, ctx);
  return (await answering('debug_traceCall', () => traceCall(engine.chain, msg, block, opts))) as DebugTraceCallResult;
}

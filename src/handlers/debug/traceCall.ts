import type { StateManagerInterface } from '@ethereumjs/common';
import {
  InvalidOverrideError,
  JsonText,
  blockWithOverrides,
  hasBlockOverrides,
  writeStateOverrides,
  traceCall,
} from '../../chain/index.js';
import type { DebugTraceCallParams, DebugTraceCallResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { invalidParams } from '../../rpc/errors.js';
import { RawJson } from '../../rpc/raw-json.js';
import { engineOf } from '../block-ref.js';
import { callOverridesOf } from '../eth/call-overrides.js';
import { callBlock, callMessageOf } from '../eth/call-request.js';
import { consoleOf, printConsole } from '../eth/console-lines.js';
import { traceOptionsOf } from './trace-config.js';
import { tracing } from '../trace-answer.js';

/**
 * Runs a call as eth_call would (same defaults and gas cap) on a block's state and traces it; the config's
 * stateOverrides and blockOverrides apply as they do to eth_call.
 */
export async function debug_traceCall(
  [request, blockParam, config]: DebugTraceCallParams,
  ctx: HandlerContext,
): Promise<DebugTraceCallResult> {
  const engine = engineOf(ctx);
  // The trace has its own time cap (trace-timeout), not eth_call's.
  const { deadline: _callDeadline, ...msg } = callMessageOf(ctx, request, 'debug_traceCall');
  const stored = await callBlock(engine, blockParam);
  const overrides = callOverridesOf(config?.stateOverrides, config?.blockOverrides);
  const state = overrides?.state;
  const opts = {
    ...traceOptionsOf(config, ctx),
    // The struct logger's answer comes as JSON text, sent on as it is.
    jsonText: true,
    // The call's console.log lines go to the node's log, as Anvil prints them; the trace shows the calls themselves.
    ...(consoleOf(ctx).console
      ? { onConsole: (lines: readonly string[]) => printConsole(ctx, 'debug_traceCall', lines) }
      : {}),
    ...(state !== undefined ? { prepareState: (s: StateManagerInterface) => writeStateOverrides(s, state) } : {}),
  };
  let block = stored;
  if (hasBlockOverrides(overrides?.block)) {
    try {
      block = blockWithOverrides(stored, overrides.block, engine.chain.commonAt(stored.header.number));
    } catch (err) {
      if (err instanceof InvalidOverrideError) throw invalidParams(`invalid params: ${err.message}`);
      throw err;
    }
  }
  const result = await tracing(ctx, 'debug_traceCall', () => traceCall(engine.chain, msg, block, opts));
  return (result instanceof JsonText ? new RawJson(result.pieces, result.release) : result) as DebugTraceCallResult;
}

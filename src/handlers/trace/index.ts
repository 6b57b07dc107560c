import type { TraceHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { trace_block, trace_get, trace_transaction } from './block.js';
import { trace_call, trace_callMany, trace_rawTransaction } from './call.js';
import { trace_filter } from './filter.js';
import { trace_replayBlockTransactions, trace_replayTransaction } from './replay.js';

/** OpenEthereum's trace_* over the tracing engine (src/chain/trace), in core-geth's shapes. */
export const traceHandlers: TraceHandlers<HandlerContext> = {
  trace_block,
  trace_call,
  trace_callMany,
  trace_filter,
  trace_get,
  trace_rawTransaction,
  trace_replayBlockTransactions,
  trace_replayTransaction,
  trace_transaction,
};

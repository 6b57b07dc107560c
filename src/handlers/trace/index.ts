import type { TraceHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { methodHandlers } from '../methods.generated.js';

/** OpenEthereum's trace_* over the tracing engine (src/chain/trace), in core-geth's shapes. */
export const traceHandlers: TraceHandlers<HandlerContext> = {
  ...methodHandlers.trace,
};

import type { DebugHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../context.js';

/** No debug_* method is available yet: each answers -32004 until its issue lands and `tsc` asks for the handler here. */
export const debugHandlers: DebugHandlers<HandlerContext> = {};

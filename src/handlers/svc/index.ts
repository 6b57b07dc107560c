import type { SvcHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../context.js';

/** No svc_* method is available yet: each answers -32004 until its issue lands and `tsc` asks for the handler here. */
export const svcHandlers: SvcHandlers<HandlerContext> = {};

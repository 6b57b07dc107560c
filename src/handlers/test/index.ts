import type { TestHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../context.js';

/** No test_* method is available yet: each answers -32004 until its issue lands and `tsc` asks for the handler here. */
export const testHandlers: TestHandlers<HandlerContext> = {};

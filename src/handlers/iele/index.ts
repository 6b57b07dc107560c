import type { IeleHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { methodHandlers } from '../methods.generated.js';

/** No iele_* method is available yet: each answers -32004 until its issue lands and `tsc` asks for the handler here. */
export const ieleHandlers: IeleHandlers<HandlerContext> = { ...methodHandlers.iele };

import type { SvcHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { svc_getAccountTransactions } from './getAccountTransactions.js';

export const svcHandlers: SvcHandlers<HandlerContext> = {
  svc_getAccountTransactions,
};

import type { SvcHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { methodHandlers } from '../methods.generated.js';

export const svcHandlers: SvcHandlers<HandlerContext> = {
  ...methodHandlers.svc,
};

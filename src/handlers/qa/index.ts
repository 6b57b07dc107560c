import type { QaHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { methodHandlers } from '../methods.generated.js';

export const qaHandlers: QaHandlers<HandlerContext> = {
  ...methodHandlers.qa,
};

import type { TestHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { methodHandlers } from '../methods.generated.js';

/** The retesteth interface (enabled by --testmode). */
export const testHandlers: TestHandlers<HandlerContext> = {
  ...methodHandlers.test,
};

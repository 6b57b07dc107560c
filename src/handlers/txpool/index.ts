import type { TxpoolHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { methodHandlers } from '../methods.generated.js';

/** geth's txpool namespace over the engine's pool (src/chain/txpool). */
export const txpoolHandlers: TxpoolHandlers<HandlerContext> = {
  ...methodHandlers.txpool,
};

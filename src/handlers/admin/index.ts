import type { AdminHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { methodHandlers } from '../methods.generated.js';

/** geth's admin namespace over the devp2p service (src/p2p): this node's identity, its peers, the datadir. */
export const adminHandlers: AdminHandlers<HandlerContext> = {
  ...methodHandlers.admin,
};

import type { NetHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { methodHandlers } from '../methods.generated.js';

/** Network facts, and the peer table and blacklist of the devp2p service (src/p2p) when peering runs. */
export const netHandlers: NetHandlers<HandlerContext> = {
  ...methodHandlers.net,
};

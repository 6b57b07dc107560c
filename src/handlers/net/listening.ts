import type { NetListeningParams, NetListeningResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';

/** Whether the devp2p listener is open: it is whenever the peer service runs (it fails start-up otherwise). */
export function net_listening(_params: NetListeningParams, ctx: HandlerContext): NetListeningResult {
  return ctx.node.peers !== undefined;
}

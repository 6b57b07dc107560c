import type { NetPeerCountParams, NetPeerCountResult } from '../../generated/types.js';
import type { HandlerContext } from '../context.js';
import { toQuantity } from '../hex.js';

/** Handshaked peers, as the node's chain status reports them: 0 until devp2p peering exists. */
export function net_peerCount(_params: NetPeerCountParams, ctx: HandlerContext): NetPeerCountResult {
  return toQuantity(ctx.node.chainStatus().peerCount);
}

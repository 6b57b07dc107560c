import type { NetPeerCountParams, NetPeerCountResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { toQuantity } from '../hex.js';

/** Handshaked peers; 0 when peering is off. */
export function net_peerCount(_params: NetPeerCountParams, ctx: HandlerContext): NetPeerCountResult {
  return toQuantity(ctx.node.peers?.peerCount() ?? 0);
}

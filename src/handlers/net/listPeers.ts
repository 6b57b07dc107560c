import type { NetListPeersParams, NetListPeersResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { formatPeer } from './peer-format.js';
import { peersOf } from './peer-service.js';

/** Every connection the peer service holds, handshaked or not; -32002 when peering is off. */
export function net_listPeers(_params: NetListPeersParams, ctx: HandlerContext): NetListPeersResult {
  return peersOf(ctx).peers().map(formatPeer);
}

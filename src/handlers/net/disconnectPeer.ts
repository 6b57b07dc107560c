import type { NetDisconnectPeerParams, NetDisconnectPeerResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { peerCall } from './peer-service.js';

/** Drops the connection with this id (host:port from net_listPeers); false when there is none. */
export function net_disconnectPeer([peerId]: NetDisconnectPeerParams, ctx: HandlerContext): NetDisconnectPeerResult {
  return peerCall(ctx, (peers) => peers.disconnect(peerId));
}

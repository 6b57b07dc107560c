import type { NetHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { net_addToBlacklist } from './addToBlacklist.js';
import { net_connectToPeer } from './connectToPeer.js';
import { net_disconnectPeer } from './disconnectPeer.js';
import { net_listBlacklistedPeers } from './listBlacklistedPeers.js';
import { net_listening } from './listening.js';
import { net_listPeers } from './listPeers.js';
import { net_peerCount } from './peerCount.js';
import { net_removeFromBlacklist } from './removeFromBlacklist.js';
import { net_version } from './version.js';

/** Network facts, and the peer table and blacklist of the devp2p service (src/p2p) when peering runs. */
export const netHandlers: NetHandlers<HandlerContext> = {
  net_version,
  net_listening,
  net_peerCount,
  net_listPeers,
  net_disconnectPeer,
  net_connectToPeer,
  net_listBlacklistedPeers,
  net_addToBlacklist,
  net_removeFromBlacklist,
};

import type { AdminHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { admin_datadir, admin_nodeInfo } from './node-info.js';
import {
  admin_addPeer,
  admin_addTrustedPeer,
  admin_peers,
  admin_removePeer,
  admin_removeTrustedPeer,
} from './peers.js';

/** geth's admin namespace over the devp2p service (src/p2p): this node's identity, its peers, the datadir. */
export const adminHandlers: AdminHandlers<HandlerContext> = {
  admin_nodeInfo,
  admin_peers,
  admin_addPeer,
  admin_removePeer,
  admin_addTrustedPeer,
  admin_removeTrustedPeer,
  admin_datadir,
};

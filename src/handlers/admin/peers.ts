/**
 * admin_peers and the peer operations in geth's shapes, over the devp2p service. A peer's `enode` is its node id at
 * the address of the connection (for an inbound peer that is the port it dialled from, as in geth).
 */
import type {
  AdminAddPeerParams,
  AdminAddPeerResult,
  AdminAddTrustedPeerParams,
  AdminAddTrustedPeerResult,
  AdminPeersParams,
  AdminPeersResult,
  AdminRemovePeerParams,
  AdminRemovePeerResult,
  AdminRemoveTrustedPeerParams,
  AdminRemoveTrustedPeerResult,
} from '../../generated/types.js';
import type { PeerAdmin, PeerService } from '../../p2p/types.js';
import { methodNotSupported } from '../../rpc/errors.js';
import type { HandlerContext } from '../../rpc/context.js';
import { hexFromBytes, toQuantity } from '../hex.js';
import { peerCall, peersOf } from '../net/peer-service.js';
import { nodeHashOf } from './node-info.js';

const adminOf = (peers: PeerService, method: string): PeerAdmin => {
  if (peers.admin === undefined) throw methodNotSupported(method, 'the peer service offers no admin operations');
  return peers.admin;
};

/** Handshaked peers only, as geth lists them (connections still handshaking are not peers yet). */
export function admin_peers(_params: AdminPeersParams, ctx: HandlerContext): AdminPeersResult {
  const peers = peersOf(ctx);
  return peers
    .peerDetails()
    .filter((peer) => peer.status === 'Handshaked' && peer.nodeId !== null)
    .map((peer) => {
      const nodeId = peer.nodeId as string;
      const eth = peer.capabilities.filter((cap) => cap.startsWith('eth/')).map((cap) => Number(cap.slice(4)));
      return {
        enode: `enode://${nodeId}@${peer.remoteAddress}`,
        id: nodeHashOf(nodeId),
        name: peer.clientId ?? '',
        caps: [...peer.capabilities],
        network: {
          remoteAddress: peer.remoteAddress,
          inbound: peer.incoming,
          trusted: peers.admin?.isTrusted(nodeId) ?? false,
          static: peer.foundBy === 'static',
        },
        protocols: {
          eth: {
            version: eth.length > 0 ? Math.max(...eth) : 0,
            ...(peer.totalDifficulty !== null ? { difficulty: toQuantity(peer.totalDifficulty) } : {}),
            ...(peer.bestHash !== null ? { head: hexFromBytes(peer.bestHash) } : {}),
          },
        },
      };
    });
}

/** Dials the peer and keeps it connected (true at once; the outcome shows in admin_peers), as net_connectToPeer. */
export function admin_addPeer([enode]: AdminAddPeerParams, ctx: HandlerContext): AdminAddPeerResult {
  peerCall(ctx, (peers) => peers.connect(enode));
  return true;
}

/** Drops the peer and stops redialling it; false when this node neither kept nor had it. */
export function admin_removePeer([enode]: AdminRemovePeerParams, ctx: HandlerContext): AdminRemovePeerResult {
  return peerCall(ctx, (peers) => adminOf(peers, 'admin_removePeer').removePeer(enode));
}

/** Keeps the peer connected even over maxpeers, and never drops it for a better peer. */
export function admin_addTrustedPeer(
  [enode]: AdminAddTrustedPeerParams,
  ctx: HandlerContext,
): AdminAddTrustedPeerResult {
  peerCall(ctx, (peers) => adminOf(peers, 'admin_addTrustedPeer').addTrustedPeer(enode));
  return true;
}

/** Takes the trusted mark away; the connection stays. false when the peer was not trusted. */
export function admin_removeTrustedPeer(
  [enode]: AdminRemoveTrustedPeerParams,
  ctx: HandlerContext,
): AdminRemoveTrustedPeerResult {
  return peerCall(ctx, (peers) => adminOf(peers, 'admin_removeTrustedPeer').removeTrustedPeer(enode));
}

/** The JSON shapes of peers (net_listPeers, debug_listPeersInfo) from the peer service's engine-side values. */
import type { PeerDetails, PeerSummary } from '../../p2p/types.js';
import type { Peer, PeerInfo } from '../../generated/types.js';
import { hexFromBytes, toQuantity } from '../hex.js';

export function formatPeer(peer: PeerSummary): Peer {
  return {
    id: peer.id,
    remoteAddress: peer.remoteAddress,
    nodeId: peer.nodeId,
    incomingConnection: peer.incoming,
    status: peer.status,
    foundBy: peer.foundBy,
    score: peer.score,
  };
}

const quantityOrNull = (value: bigint | null) => (value === null ? null : toQuantity(value));
const hashOrNull = (value: Uint8Array | null) => (value === null ? null : hexFromBytes(value));

export function formatPeerInfo(peer: PeerDetails): PeerInfo {
  return {
    ...formatPeer(peer),
    clientId: peer.clientId,
    capabilities: [...peer.capabilities],
    networkId: quantityOrNull(peer.networkId),
    genesisHash: hashOrNull(peer.genesisHash),
    bestBlockHash: hashOrNull(peer.bestHash),
    maxBlockNumber: quantityOrNull(peer.maxBlockNumber),
    totalDifficulty: quantityOrNull(peer.totalDifficulty),
    forkAccepted: peer.forkAccepted,
  };
}

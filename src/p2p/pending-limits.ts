/**
 * Defaults of the pending-handshake limits (peer-manager.ts): inbound sockets still in their RLPx/Hello handshake
 * at once, in all and from one IP address. In a module of their own so that the node's settings read them
 * without loading devp2p.
 */
export const DEFAULT_MAX_PENDING_PEERS = 32;
export const DEFAULT_MAX_PENDING_PEERS_PER_IP = 4;

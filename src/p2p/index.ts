/** devp2p for the node: `startPeerService` opens it; everything else sees the `PeerService` interface. */
export { startPeerService, type PeerServiceOptions } from './service.js';
export * from './types.js';

/** What the devp2p service (service.ts) is started with: the node's side of peering, from its settings. */
import type { P2pEngine } from './chain-port.js';
import type { PeerLog } from './peer-manager.js';

export interface PeerServiceOptions {
  readonly datadir: string;
  readonly engine: P2pEngine;
  readonly clientId: string;
  readonly listenHost: string;
  readonly listenPort: number;
  readonly maxPeers: number;
  /** Inbound sockets still in their handshake at once, in all and from one IP (they do not count in maxPeers). */
  readonly maxPendingPeers?: number;
  readonly maxPendingPeersPerIp?: number;
  /**
   * Enode URLs from configuration (`--bootnodes`); `<datadir>/static-nodes.json` is read as well. Without
   * discovery they are static peers (kept connected); with it, bootnodes are where discovery starts and dial
   * candidates, and only static-nodes.json and net_connectToPeer peers are kept connected.
   */
  readonly bootnodes: readonly string[];
  readonly discovery?: {
    readonly port?: number;
    readonly intervalMs: number;
    readonly dnsTrees: readonly string[];
    readonly dnsServer?: string;
  };
  /** The IPv4 address other nodes reach us at (`--nat extip:`). */
  readonly externalIp?: string;
  /** Share (0–1) of maxPeers filled by dialling discovered nodes. */
  readonly dialRatio?: number;
  /** Snap requests of one peer answered at a time (the per-peer serving budget). */
  readonly snapRequestsPerPeer?: number;
  /** The most bytes of one snap answer we serve (default and most: 2 MiB). */
  readonly snapResponseBytes?: number;
  readonly log: PeerLog & { error(msg: string, f?: Record<string, unknown>): void };
  readonly redialMs?: number;
  /** snap: an empty node (head at genesis) first snap-syncs, then follows with full sync. Default full. */
  readonly syncMode?: 'snap' | 'full';
  /** Snap sync: blocks the pivot stays below the peers' head. */
  readonly pivotDistance?: number;
  /** Snap sync: ms of pause before each healing request (0 = none). */
  readonly healPauseMs?: number;
  /** Snap sync: the resident-set ceiling in bytes it keeps under (default 1.5 GiB). */
  readonly snapMaxRssBytes?: number;
}

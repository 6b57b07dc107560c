/**
 * What the rest of the node sees of devp2p: the peer table, the blacklist, dialling and sync progress.
 * Handlers (net_*, debug_listPeersInfo, eth_syncing), health and the MCP tools read through this one
 * interface; nothing here knows JSON-RPC, and nothing outside src/p2p knows RLPx.
 */

import type { DialFailureCounts } from './dial-failures.js';

/** Connection states of the spec's peer table. */
export type PeerStatus = 'Connecting' | 'Handshaking' | 'Handshaked' | 'Idle' | 'Disconnected';

/** How a peer came to us: configured (bootnodes, static-nodes.json, net_connectToPeer), discv4, a DNS tree, or it dialled us. */
export type PeerSource = 'static' | 'discovery' | 'dns' | 'inbound';

export interface PeerSummary {
  /** Connection handle (the remote socket address, host:port); what disconnectPeer takes. */
  readonly id: string;
  readonly remoteAddress: string;
  /** 64-byte public key as 128 hex digits (no 0x); null until the RLPx handshake revealed it. */
  readonly nodeId: string | null;
  readonly incoming: boolean;
  readonly status: PeerStatus;
  readonly foundBy: PeerSource;
  /** 0–100 (src/p2p/peer-score.ts); null until the eth handshake. */
  readonly score: number | null;
}

export interface PeerDetails extends PeerSummary {
  readonly clientId: string | null;
  /** From Hello, e.g. `eth/68`, `snap/1`. */
  readonly capabilities: readonly string[];
  readonly networkId: bigint | null;
  readonly genesisHash: Uint8Array | null;
  readonly bestHash: Uint8Array | null;
  /** Highest block number the peer is known to have (from announcements and its best header). */
  readonly maxBlockNumber: bigint | null;
  readonly totalDifficulty: bigint | null;
  /** Whether its fork id passed EIP-2124 validation; null before STATUS. */
  readonly forkAccepted: boolean | null;
}

export interface BlacklistEntry {
  /** An IP address or a node id (128 hex digits). */
  readonly id: string;
  readonly reason: string;
  /** ms since the epoch. */
  readonly addedAt: number;
  /** ms since the epoch; null = permanent. */
  readonly expiresAt: number | null;
}

/** What the node does to find peers, for operators (log, /healthcheck, MCP). */
export interface PeerSearch {
  readonly discovery: boolean;
  /** UDP port of discv4; null when discovery is off. */
  readonly udpPort: number | null;
  /** Nodes in the discv4 table. */
  readonly tableSize: number;
  /** host:port of the bootnodes and configured peers. */
  readonly bootnodes: readonly string[];
  readonly dnsTrees: readonly { readonly url: string; readonly records: number; readonly error: string | null }[];
  /** Outbound dials started, and how many of them reached an eth handshake. */
  readonly dialsTried: number;
  readonly dialsSucceeded: number;
  /** Our dials that never became peers, by reason. */
  readonly dialFailures?: DialFailureCounts;
  /** Candidates from discovery and DNS waiting to be dialled. */
  readonly candidates: number;
}

export interface SyncProgress {
  readonly startingBlock: bigint;
  readonly currentBlock: bigint;
  readonly highestBlock: bigint;
  /** While a snap sync runs: its phase and counts. */
  readonly snap?: SnapSyncStatus;
}

/** A snap sync's progress (src/p2p/snap/sync/). */
export interface SnapSyncStatus {
  readonly phase: 'headers' | 'accounts' | 'healing';
  /** The block whose state is being downloaded. */
  readonly pivot: bigint;
  /** Highest stored header of the chain to the pivot. */
  readonly headers: bigint;
  readonly accounts: number;
  readonly slots: number;
  readonly codes: number;
  readonly healedNodes: number;
  /** Fetched trie nodes waiting for their children before they are written. */
  readonly pendingHealNodes: number;
}

/** The history backfill after a snap sync (src/p2p/snap/sync/backfill.ts). */
export interface HistoryBackfillProgress {
  /** The snap base: blocks 1..pivot are the ones backfilled. */
  readonly pivot: bigint;
  /** Blocks below and at the pivot whose bodies and receipts are stored. */
  readonly backfilledBlocks: bigint;
  readonly backfillTarget: bigint;
}

export type SyncEvent = { readonly syncing: false } | { readonly syncing: true; readonly status: SyncProgress };

/** Thrown for input the operator can fix (a bad enode URL, an unknown address form); the message says what. */
export class PeerInputError extends Error {
  override name = 'PeerInputError';
}

/**
 * geth's admin_* peer operations. Trusted peers are kept connected like static ones and over maxPeers: dialled even
 * when the table is full, and never dropped to make room for a better peer.
 */
export interface PeerAdmin {
  /** Our node record (EIP-778 `enr:` text); null when discovery is off. */
  readonly enr: string | null;
  /** Stops keeping this peer (static or trusted) connected and drops its connection; false when it was neither. */
  removePeer(enode: string): boolean;
  /** Marks the peer trusted and keeps it connected. Throws PeerInputError for a malformed URL. */
  addTrustedPeer(enode: string): void;
  /** Takes the trusted mark away (the connection stays); false when the peer was not trusted. */
  removeTrustedPeer(enode: string): boolean;
  isTrusted(nodeIdHex: string): boolean;
}

export interface PeerService {
  /** Our enode URL, `enode://<id>@<host>:<port>`. */
  readonly enode: string;
  /** The admin_* operations; absent on a service that offers none (the handlers then answer -32004). */
  readonly admin?: PeerAdmin;
  /** The TCP port actually listened on (the configured one, or the one picked for port 0). */
  readonly listenPort: number;
  /**
   * Whether any peer was configured to dial (bootnodes, static-nodes.json, net_connectToPeer) or has been
   * connected since the start. A dev node with neither is a single-node chain and counts as ready without peers.
   */
  hasConfiguredPeers(): boolean;
  /** How the node looks for peers and how far it got. */
  search(): PeerSearch;
  /** Handshaked peers (eth STATUS exchanged and accepted). */
  peerCount(): number;
  peers(): readonly PeerSummary[];
  peerDetails(): readonly PeerDetails[];
  /** Queues a dial (and keeps redialling it as a static peer). Throws PeerInputError for a malformed URL. */
  connect(enode: string): void;
  /** false when no connection has that id. */
  disconnect(id: string): boolean;
  blacklist(): readonly BlacklistEntry[];
  /**
   * Blocks an IP address, a node id, or the peer of a connection id (host:port from peers()) for `seconds`
   * (null = permanently); connected matches are dropped at once. Throws PeerInputError for an unusable address.
   */
  addToBlacklist(address: string, seconds: number | null, reason: string): void;
  /** false when nothing was listed under that address. */
  removeFromBlacklist(address: string): boolean;
  /** null when not syncing (at the best known peer's head, or no peer ahead of us). */
  syncProgress(): SyncProgress | null;
  /** After a snap sync, while the history below its base is fetched: how far it is; null otherwise. */
  historyBackfill?(): HistoryBackfillProgress | null;
  /** Sync started, progressed or stopped; for the `syncing` subscription. Returns an unsubscribe function. */
  onSyncEvent(listener: (event: SyncEvent) => void): () => void;
  close(): Promise<void>;
}

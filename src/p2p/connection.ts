/** One entry of the peer manager's connection table: a socket on its way to (or in) an eth session. */
import type { DialFailureReason } from './dial-failures.js';
import { bytesToHex } from '@ethereumjs/util';
import type { DialTarget } from './dial-pool.js';
import type { EthSession } from './eth/session.js';
import type { RlpxLink } from './rlpx/transport.js';
import type { PeerSource, PeerStatus } from './types.js';

export class Connection {
  status: PeerStatus = 'Connecting';
  link: RlpxLink | undefined;
  session: EthSession | undefined;
  nodeId: Uint8Array | null;
  /**
   * Counted against maxPeers: our own dials from the start, an inbound link once its Hello shows a node worth a
   * slot. Until then an inbound link is a pending handshake, bounded by the pending limits instead (so sockets
   * that never finish a handshake cannot hold the peer slots).
   */
  admitted: boolean;
  /** Why our dial's socket failed before it connected (peer-manager.ts counts it when the connection goes). */
  dialFailure: DialFailureReason | undefined;

  constructor(
    readonly id: string,
    readonly remoteIp: string,
    readonly incoming: boolean,
    readonly target: DialTarget | undefined,
    remoteId: Uint8Array | null,
    readonly foundBy: PeerSource,
  ) {
    this.nodeId = remoteId;
    this.admitted = !incoming;
  }

  /** An inbound link still in its RLPx/Hello handshake. */
  get pending(): boolean {
    return this.incoming && !this.admitted;
  }

  get nodeIdHex(): string | null {
    return this.nodeId === null ? null : bytesToHex(this.nodeId).slice(2);
  }

  /** Who dialled: the node that opened this TCP connection. */
  dialler(self: Uint8Array): Uint8Array | null {
    return this.incoming ? this.nodeId : self;
  }
}

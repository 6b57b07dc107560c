/**
 * EIP-2124 after the handshake: a peer whose fork id said it would fork away (their next fork is not ours, or ours is
 * not theirs) is kept while both rule sets agree, and dropped once our head reaches the block where they part. Its
 * fork id is the one its STATUS carried: eth/68 sends no other. A stale id of a compatible peer stays compatible
 * (rules 2 and 3 accept every past and future fork state of our own schedule), so re-checking it never drops one.
 */
import type { EthSession } from './eth/session.js';
import { SessionError } from './eth/session.js';
import type { ForkIdTable } from './fork-id.js';
import { DisconnectReason } from './rlpx/transport.js';
import type { PeerLog } from './peer-manager.js';

/** Drops every ready session whose STATUS fork id our chain at `head` no longer accepts; says why for each. */
export function dropDivergedPeers(
  sessions: readonly EthSession[],
  forkIds: ForkIdTable,
  head: bigint,
  log: PeerLog,
): void {
  for (const session of sessions) {
    const status = session.remoteStatus;
    if (status === null || !session.ready) continue;
    const verdict = forkIds.check(head, status.forkId);
    if (verdict === true) continue;
    const id = session.link.remoteId;
    log.warn('p2p peer dropped: fork id no longer compatible', {
      peer: id !== null ? Buffer.from(id).toString('hex').slice(0, 16) : 'unknown',
      head: head.toString(),
      reason: verdict,
    });
    session.fail(new SessionError(DisconnectReason.USELESS_PEER, `fork id: ${verdict}`));
  }
}

/** The rows admin_peers / net_listPeers show: one per connection, and one per configured peer waiting for a dial. */
import type { Connection } from './connection.js';
import type { DialTarget } from './dial-pool.js';
import type { PeerDetails } from './types.js';

export function connectionRow(c: Connection): PeerDetails {
  const s = c.session;
  const hello = c.link?.hello ?? null;
  return {
    id: c.id,
    remoteAddress: c.id,
    nodeId: c.nodeIdHex,
    incoming: c.incoming,
    status: c.status,
    foundBy: c.foundBy,
    score: s?.ready ? s.score.value : null,
    clientId: hello?.clientId ?? null,
    capabilities: hello?.capabilities ?? [],
    networkId: s?.remoteStatus?.networkId ?? null,
    genesisHash: s?.remoteStatus?.genesisHash ?? null,
    bestHash: s?.bestHash ?? null,
    maxBlockNumber: s?.bestNumber ?? null,
    totalDifficulty: s?.td ?? null,
    forkAccepted: s?.forkAccepted ?? null,
  };
}

/** A static peer waiting for its next dial, listed as Idle so that an operator sees who is expected. */
export function idleTargetRow(t: DialTarget): PeerDetails {
  const id = `${t.enode.host}:${t.enode.port}`;
  return {
    id,
    remoteAddress: id,
    nodeId: t.idHex,
    incoming: false,
    status: 'Idle',
    foundBy: 'static',
    score: null,
    clientId: null,
    capabilities: [],
    networkId: null,
    genesisHash: null,
    bestHash: null,
    maxBlockNumber: null,
    totalDifficulty: null,
    forkAccepted: null,
  };
}

/**
 * Peers worth keeping, on a node process with --maxpeers 1: while its one peer scores full marks a newcomer is
 * refused; once that peer lets a request time out (it claims a heavier chain and never answers for headers), a
 * newcomer takes its place, and the peer table shows the newcomer's score and how it came (inbound).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { DisconnectReason, SOCKET_CLOSED_BEFORE_HANDSHAKE, type StatusScript, TestPeer } from '../helpers/test-peer.js';
import { call, waitFor } from './multi-node-fixture.js';

let node: NodeProcess;
const peers: TestPeer[] = [];

type Row = { nodeId: string | null; status: string; score: number | null; foundBy: string };
const table = () => call<Row[]>(node.url, 'net_listPeers');

beforeAll(async () => {
  node = await startNode({ args: ['--maxpeers', '1', '--no-mine'], timeoutMs: 90_000 });
}, 120_000);

afterAll(async () => {
  await Promise.all(peers.map((p) => p.destroy()));
  await node?.stop();
});

async function dial(status?: StatusScript): Promise<TestPeer> {
  const peer = await TestPeer.dial(node.enode!, status === undefined ? {} : { status });
  peers.push(peer);
  return peer;
}

describe('a full peer table', () => {
  it('refuses a newcomer while its peer is good, and gives the place to one when its peer times out', async () => {
    // Claims more work than the node has, so the node asks it for headers; it never answers.
    const laggard = await dial((s) => ({ ...s, td: s.td + 1_000n, bestHash: randomBytes(32) }));
    await laggard.nodeStatus;
    await waitFor(
      async () => (await table()).some((r) => r.nodeId === laggard.nodeId && r.score === 100),
      'the first peer',
      { node },
    );

    const early = await dial();
    expect((await early.closed).name).toBe(SOCKET_CLOSED_BEFORE_HANDSHAKE);

    await waitFor(
      async () => (await table()).some((r) => r.nodeId === laggard.nodeId && (r.score ?? 100) < 90),
      'the first peer to lose points for a request that timed out',
      { node },
      40_000,
    );
    const newcomer = await dial();
    await newcomer.nodeStatus;
    expect(await laggard.closed).toMatchObject({ reason: DisconnectReason.TOO_MANY_PEERS, byUs: false });
    await waitFor(
      async () => (await table()).some((r) => r.nodeId === newcomer.nodeId && r.status === 'Handshaked'),
      'the newcomer in the table',
      { node },
    );
    const rows = await table();
    expect(rows.find((r) => r.nodeId === newcomer.nodeId)).toMatchObject({ foundBy: 'inbound', score: 100 });
    expect(rows.some((r) => r.nodeId === laggard.nodeId)).toBe(false);
    expect(node.logs).toContainEqual(expect.objectContaining({ msg: 'p2p peer dropped for a better one' }));
  }, 90_000);
});

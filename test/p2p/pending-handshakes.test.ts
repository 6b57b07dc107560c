/**
 * Pending handshakes on a real node (issue 37, item 2): inbound sockets that never finish their handshake do not
 * take peer slots. With the default --maxpeers 25, 40 idle TCP connections from 40 loopback addresses and 8 more
 * from the real peer's own address are held open; a real peer still completes its handshake and gets the node's
 * STATUS. The node keeps at most 32 pending handshakes (4 per IP), cutting the oldest for each newcomer.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_PENDING_PEERS, DEFAULT_MAX_PENDING_PEERS_PER_IP } from '../../src/p2p/pending-limits.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { TestPeer } from '../helpers/test-peer.js';
import { call, waitFor } from './multi-node-fixture.js';

let node: NodeProcess;
const sockets: Socket[] = [];
const peers: TestPeer[] = [];

beforeAll(async () => {
  node = await startNode({ args: ['--no-mine', '--log-level', 'debug'], timeoutMs: 60_000 });
}, 90_000);

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(peers.map((p) => p.destroy().catch(() => undefined)));
  await node?.stop();
});

/** A TCP connection from `localAddress` (any 127.x.y.z reaches the node on loopback) that never says a word. */
function idleSocket(localAddress: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: node.p2pPort!, localAddress });
    sockets.push(socket);
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
}

type Row = { id: string; status: string };

describe('pending handshakes', () => {
  it('a real peer completes its handshake while 48 idle sockets are held open', async () => {
    const others = Array.from({ length: 40 }, (_, i) => `127.0.0.${i + 2}`);
    await Promise.all(others.map((ip) => idleSocket(ip)));
    for (let i = 0; i < 8; i++) await idleSocket('127.0.0.1');
    // Before the limits each idle socket took a peer slot: the first 25 held all of them.
    await waitFor(
      async () => (await call<Row[]>(node.url, 'net_listPeers')).filter((r) => r.status === 'Handshaking').length >= 25,
      'the idle sockets in the peer table',
      { node },
    );

    const peer = await TestPeer.dial(node.enode!);
    peers.push(peer);
    const status = await peer.nodeStatus;
    expect(status.networkId).toBe(1337n);
    await waitFor(async () => (await call<string>(node.url, 'net_peerCount')) === '0x1', 'the peer to be handshaked', {
      node,
    });

    const pending = (await call<Row[]>(node.url, 'net_listPeers')).filter((r) => r.status === 'Handshaking');
    expect(pending.length).toBeLessThanOrEqual(DEFAULT_MAX_PENDING_PEERS);
    const fromOwnIp = pending.filter((r) => r.id.startsWith('127.0.0.1:'));
    expect(fromOwnIp.length).toBeLessThanOrEqual(DEFAULT_MAX_PENDING_PEERS_PER_IP);
    const dropped = node.logs.filter((e) => e.msg === 'p2p pending handshake dropped for a newer one');
    expect(dropped.some((e) => e.limit === DEFAULT_MAX_PENDING_PEERS)).toBe(true);
    expect(dropped.some((e) => e.limit === DEFAULT_MAX_PENDING_PEERS_PER_IP)).toBe(true);
  }, 60_000);
});

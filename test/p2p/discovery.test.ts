/**
 * discv4 on loopback, as node processes: one bootnode and six nodes with discovery on and no static peers find
 * each other (each holds at least 3 peers within 60 s); a seventh node on another genesis (the Ethash dev chain) is
 * found by discovery but not kept: the others drop it at STATUS and blacklist it for a while; a node restarted on
 * the same key and port is found again. Mining is off everywhere to keep the 2-core machine free for 8 processes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { call, nodeIdOfEnode, peerCountOf, waitFor } from './multi-node-fixture.js';

const FAST = ['--discovery', '--discovery.interval', '1s', '--no-mine'];
const started: NodeProcess[] = [];
const datadirs: string[] = [];
let boot: NodeProcess;
let members: NodeProcess[] = [];

async function start(args: string[]): Promise<NodeProcess> {
  const node = await startNode({ args: [...FAST, ...args], timeoutMs: 90_000 });
  started.push(node);
  return node;
}

const named = () => Object.fromEntries([boot, ...members].map((n, i) => [i === 0 ? 'boot' : `node${i}`, n]));

beforeAll(async () => {
  boot = await start([]);
  const bootnode = boot.enode!;
  for (let i = 0; i < 6; i++) datadirs.push(mkdtempSync(join(tmpdir(), 'svc-node-disc-')));
  members = await Promise.all(datadirs.map((datadir) => start(['--bootnodes', bootnode, '--datadir', datadir])));
}, 240_000);

afterAll(async () => {
  await Promise.all(started.map((n) => n.stop()));
  for (const dir of datadirs) rmSync(dir, { recursive: true, force: true });
});

describe('discv4 on loopback: a bootnode and six nodes without static peers', () => {
  it('gives every node at least 3 peers within 60 s, and says how each was found', async () => {
    const counts = () => Promise.all([boot, ...members].map(peerCountOf));
    await waitFor(
      async () => (await counts()).every((n) => n >= 3),
      'every node to hold 3 peers',
      named(),
      60_000,
      async () => `peer counts: ${(await counts()).join(', ')}`,
    );
    const peers = await call<{ foundBy: string; score: number | null; status: string }[]>(
      members[5]!.url,
      'net_listPeers',
    );
    const handshaked = peers.filter((p) => p.status === 'Handshaked');
    // Nodes other than the bootnode can only have been learnt through discovery (or have dialled us).
    expect(handshaked.some((p) => p.foundBy === 'discovery' || p.foundBy === 'inbound')).toBe(true);
    for (const p of handshaked) expect(p.score).toBeGreaterThanOrEqual(0);
  }, 90_000);

  it('finds a node on another genesis but does not keep it, and blacklists it for a while', async () => {
    const stranger = await start(['--seal', 'ethash', '--bootnodes', boot.enode!]);
    const strangerId = nodeIdOfEnode(stranger.enode!);
    const rejections = () =>
      [boot, ...members].filter((n) =>
        n.logs.some(
          (l) => l.msg === 'p2p peer rejected' && l.nodeId === strangerId && /genesis/.test(String(l.detail)),
        ),
      ).length;
    await waitFor(async () => rejections() >= 2, 'two nodes to reject the stranger at STATUS', named(), 60_000);
    expect(await peerCountOf(stranger)).toBe(0);
    const banned = await call<{ id: string; reason: string }[]>(boot.url, 'net_listBlacklistedPeers');
    expect(banned).toContainEqual(
      expect.objectContaining({ id: strangerId, reason: expect.stringMatching(/genesis/) }),
    );
    await stranger.stop();
  }, 120_000);

  it('finds a node again after it restarts with the same key', async () => {
    const node = members[5]!;
    const id = nodeIdOfEnode(node.enode!);
    const p2pPort = Number(new URL(node.enode!.replace('enode://', 'http://')).port);
    await node.stop();
    const back = await start(['--bootnodes', boot.enode!, '--datadir', datadirs[5]!, '--p2p.port', String(p2pPort)]);
    members[5] = back;
    expect(nodeIdOfEnode(back.enode!)).toBe(id);
    await waitFor(async () => (await peerCountOf(back)) >= 3, 'the restarted node to hold 3 peers', named(), 60_000);
    const others = await Promise.all(
      members.slice(0, 5).map((n) => call<{ nodeId: string | null }[]>(n.url, 'net_listPeers')),
    );
    expect(others.filter((list) => list.some((p) => p.nodeId === id)).length).toBeGreaterThanOrEqual(2);
  }, 120_000);
});

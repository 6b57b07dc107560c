/**
 * admin_* over real devp2p links between three dev nodes: admin_nodeInfo describes the node (enode, geth's id,
 * ports, chain, ETC's upgrades by name), admin_datadir its datadir; on B (--maxpeers 1) admin_addPeer connects A
 * and admin_peers lists it as a static outbound peer (and A lists B as inbound); admin_addTrustedPeer connects C
 * although the table is full, listed as trusted; admin_removeTrustedPeer takes the mark away once; admin_removePeer drops A and forgets it.
 */
import { keccak256 } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { call, nodeIdOfEnode, waitFor } from './multi-node-fixture.js';

let a: NodeProcess;
let b: NodeProcess;
let c: NodeProcess;

type AdminPeer = { enode: string; id: string; network: { inbound: boolean; trusted: boolean; static: boolean } };
const peersOf = (node: NodeProcess) => call<AdminPeer[]>(node.url, 'admin_peers');
const holds = async (node: NodeProcess, other: NodeProcess) =>
  (await peersOf(node)).some((p) => nodeIdOfEnode(p.enode) === nodeIdOfEnode(other.enode!));

beforeAll(async () => {
  [a, b, c] = await Promise.all([
    startNode({ args: ['--no-mine'], timeoutMs: 60_000 }),
    startNode({ args: ['--no-mine', '--maxpeers', '1'], timeoutMs: 60_000 }),
    startNode({ args: ['--no-mine'], timeoutMs: 60_000 }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop(), c?.stop()]);
}, 60_000);

describe('admin_*', () => {
  it("admin_nodeInfo: enode, geth's id, ports and the chain; admin_datadir", async () => {
    const info = await call<any>(a.url, 'admin_nodeInfo');
    const genesis = await call<{ hash: string }>(a.url, 'eth_getBlockByNumber', ['0x0', false]);
    const head = await call<{ hash: string; totalDifficulty: string }>(a.url, 'eth_getBlockByNumber', [
      'latest',
      false,
    ]);
    expect(info).toMatchObject({
      enode: a.enode,
      id: keccak256(`0x${nodeIdOfEnode(a.enode!)}`).slice(2),
      ip: '127.0.0.1',
      ports: { listener: a.p2pPort },
      listenAddr: `127.0.0.1:${a.p2pPort}`,
      protocols: {
        eth: { network: 1337, genesis: genesis.hash, head: head.hash, difficulty: head.totalDifficulty },
      },
    });
    // The chain config names ETC's upgrades (ECIP-1066), all from block 0 on dev; no Ethereum fork names such as
    // londonBlock, which would announce EIP-1559 on a chain that never adopted it.
    const etcUpgrades = ['homestead', 'gasReprice', 'dieHard', 'gotham', 'defuse', 'atlantis', 'agharta', 'phoenix'];
    etcUpgrades.push('thanos', 'magneto', 'mystique', 'spiral');
    expect(info.protocols.eth.config).toEqual({
      chainId: 1337,
      ...Object.fromEntries(etcUpgrades.map((name) => [`${name}Block`, 0])),
    });
    expect(await call(a.url, 'admin_datadir')).toBe(a.datadir);
  });

  it('admin_addPeer connects; admin_peers lists it on both sides', async () => {
    expect(await call(b.url, 'admin_addPeer', [a.enode])).toBe(true);
    await waitFor(() => holds(b, a), 'B to list A in admin_peers', { a, b });
    const [onB] = await peersOf(b);
    expect(onB.network).toEqual({
      remoteAddress: `127.0.0.1:${a.p2pPort}`,
      inbound: false,
      trusted: false,
      static: true,
    });
    expect(onB.id).toBe(keccak256(`0x${nodeIdOfEnode(a.enode!)}`).slice(2));
    await waitFor(() => holds(a, b), 'A to list B in admin_peers', { a, b });
    expect((await peersOf(a))[0].network).toMatchObject({ inbound: true, static: false });
  });

  it('admin_addTrustedPeer connects over --maxpeers 1; admin_removeTrustedPeer takes the mark once', async () => {
    expect(await call(b.url, 'admin_addTrustedPeer', [c.enode])).toBe(true);
    await waitFor(() => holds(b, c), 'B to hold trusted C beside A', { b, c });
    const peers = await peersOf(b);
    expect(peers).toHaveLength(2);
    const trusted = peers.find((p) => nodeIdOfEnode(p.enode) === nodeIdOfEnode(c.enode!));
    expect(trusted?.network.trusted).toBe(true);
    expect(await call(b.url, 'admin_removeTrustedPeer', [c.enode])).toBe(true);
    expect(await call(b.url, 'admin_removeTrustedPeer', [c.enode])).toBe(false);
  });

  it('admin_removePeer drops the peer and forgets it; a malformed URL is -32602', async () => {
    expect(await call(b.url, 'admin_removePeer', [a.enode])).toBe(true);
    const aId = nodeIdOfEnode(a.enode!);
    await waitFor(
      async () => !(await call<{ nodeId: string | null }[]>(b.url, 'net_listPeers')).some((p) => p.nodeId === aId),
      'A gone from B (neither connected nor kept to redial)',
      { a, b },
    );
    const bad = await fetch(b.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'admin_removePeer',
        params: [`enode://${'00'.repeat(64)}@x:1`],
      }),
    });
    expect(((await bad.json()) as { error?: { code: number } }).error?.code).toBe(-32602);
  });
});

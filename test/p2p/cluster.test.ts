/**
 * The spec's 3-node private cluster (product-behaviour §9), as node processes on free loopback ports: static
 * peers node2 → node1 and node3 → node2 + node1, only node1 mining (an empty block every second). Each node
 * ends up with 2 peers, follows node1 within 2 blocks on one genesis; a node killed with SIGKILL and restarted
 * on its datadir and ports is re-linked by the others without help; a transaction sent to a non-mining node
 * reaches the miner and its receipt is the same on every node; an empty fourth node with node1 as its only
 * bootnode catches up.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import {
  blockAt,
  blockNumberOf,
  call,
  datadirWithStaticPeers,
  nodeIdOfEnode,
  peerCountOf,
  waitFor,
} from './multi-node-fixture.js';

/** node1's coinbase (§9's), so a block's `miner` says which node sealed it. */
const NODE1_COINBASE = '0x1000000000000000000000000000000000000001';
const MINING = { SVC_NODE_MINING_BLOCK_TIME: '1s' };

let node1: NodeProcess;
let node2: NodeProcess;
let node3: NodeProcess;
let node4: NodeProcess | undefined;
let node2Datadir: string;
const datadirs: string[] = [];
const started: NodeProcess[] = [];

const nodes = () => ({ node1, node2, node3 });

/** Every node on the Ethash dev chain, as `npm run cluster` runs them: a proof-of-work cluster checking real seals. */
async function start(args: string[], env?: NodeJS.ProcessEnv): Promise<NodeProcess> {
  const node = await startNode({ args: [...args, '--seal', 'ethash'], env, timeoutMs: 60_000 });
  started.push(node);
  return node;
}

function staticDatadir(enodes: string[]): string {
  const dir = datadirWithStaticPeers(enodes);
  datadirs.push(dir);
  return dir;
}

const node2Args = (datadir: string) => ['--datadir', datadir, '--no-mine'];

async function peerCounts(): Promise<number[]> {
  return Promise.all([node1, node2, node3].map(peerCountOf));
}

async function describePeers(): Promise<string> {
  return `peer counts node1..3: ${(await peerCounts()).join(', ')}`;
}

beforeAll(async () => {
  node1 = await start(['--datadir', staticDatadir([]), '--miner.coinbase', NODE1_COINBASE], MINING);
  // Each later node needs the enodes (and so the ports) of the ones before it: started in order.
  node2Datadir = staticDatadir([node1.enode!]);
  node2 = await start(node2Args(node2Datadir));
  node3 = await start(['--datadir', staticDatadir([node2.enode!, node1.enode!]), '--no-mine']);
}, 90_000);

afterAll(async () => {
  await Promise.all(started.map((node) => node.stop()));
  for (const dir of datadirs) rmSync(dir, { recursive: true, force: true });
});

describe('3-node cluster', () => {
  it('announces an enode for every node', () => {
    for (const node of [node1, node2, node3]) {
      expect(node.enode).toMatch(new RegExp(`^enode://[0-9a-f]{128}@127\\.0\\.0\\.1:${node.p2pPort}$`));
    }
  });

  it('links every node to both others (net_peerCount 0x2, net_listPeers names them)', async () => {
    await waitFor(
      async () => (await peerCounts()).every((n) => n === 2),
      'net_peerCount 0x2 on all three',
      nodes(),
      30_000,
      describePeers,
    );
    expect(await Promise.all([node1, node2, node3].map((n) => call(n.url, 'net_peerCount')))).toEqual([
      '0x2',
      '0x2',
      '0x2',
    ]);
    // One link per pair: each node's two peers are the other two, by node id.
    for (const [self, others] of [
      [node1, [node2, node3]],
      [node2, [node1, node3]],
      [node3, [node1, node2]],
    ] as const) {
      const peers = await call<Array<{ nodeId: string | null; status: string }>>(self.url, 'net_listPeers');
      const handshaked = peers.filter((p) => p.status === 'Handshaked').map((p) => p.nodeId);
      expect(handshaked.sort()).toEqual(others.map((o) => nodeIdOfEnode(o.enode!)).sort());
    }
  }, 40_000);

  it('shares one genesis and keeps heights within 2 blocks while node 1 mines', async () => {
    const genesis = await Promise.all([node1, node2, node3].map((n) => blockAt(n, 0)));
    expect(new Set(genesis.map((b) => b!.hash)).size).toBe(1);

    // Let node1 mine a few blocks and the others catch up with them first.
    await waitFor(async () => (await blockNumberOf(node1)) >= 3, 'node1 to mine 3 blocks', nodes(), 20_000);
    const target = await blockNumberOf(node1);
    await waitFor(
      async () => (await blockNumberOf(node2)) >= target && (await blockNumberOf(node3)) >= target,
      `nodes 2 and 3 to reach block ${target}`,
      nodes(),
      20_000,
    );

    // Then sample the three heights together while blocks keep coming: never more than 2 apart.
    const samples: number[][] = [];
    for (let i = 0; i < 5; i++) {
      samples.push(await Promise.all([node1, node2, node3].map(blockNumberOf)));
      await new Promise((resolve) => setTimeout(resolve, 700));
    }
    for (const heights of samples)
      expect(Math.max(...heights) - Math.min(...heights), `heights ${heights}`).toBeLessThanOrEqual(2);
    // They moved (node1 mined on, the others followed), and they are one chain, not three of equal height.
    const [first, last] = [samples[0], samples[samples.length - 1]];
    expect(
      last.every((h, i) => h > first[i]),
      `heights ${first} then ${last}`,
    ).toBe(true);
    const common = Math.min(...last);
    const hashes = await Promise.all([node1, node2, node3].map((n) => blockAt(n, common)));
    expect(new Set(hashes.map((b) => b!.hash)).size).toBe(1);
    expect(hashes[0]!.miner).toBe(NODE1_COINBASE);
  }, 50_000);

  it('mines a transaction sent to node 3 on node 1; its receipt is the same on all three', async () => {
    const [from, to] = [DEV_ACCOUNTS[1].address, DEV_ACCOUNTS[2].address];
    const hash = await call<string>(node3.url, 'eth_sendTransaction', [{ from, to, value: '0x3039' }]);
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);

    type Receipt = { blockHash: string; blockNumber: string; status: string; transactionHash: string } | null;
    const receipts = async () =>
      Promise.all([node1, node2, node3].map((n) => call<Receipt>(n.url, 'eth_getTransactionReceipt', [hash])));
    await waitFor(
      async () => (await receipts()).every((r) => r !== null),
      'the receipt on all three nodes',
      nodes(),
      30_000,
      async () => `receipts: ${JSON.stringify(await receipts())}`,
    );
    const [r1, r2, r3] = await receipts();
    expect(r1).toMatchObject({ transactionHash: hash, status: '0x1' });
    expect(r2).toEqual(r1);
    expect(r3).toEqual(r1);
    // Sealed by node1 (the only miner; node3 runs --no-mine and only relayed it).
    const block = await blockAt(node1, Number(r1!.blockNumber));
    expect(block).toMatchObject({ hash: r1!.blockHash, miner: NODE1_COINBASE });
  }, 40_000);

  it('re-links node 2 after it is killed (SIGKILL) and restarted on the same datadir and ports', async () => {
    const { port, p2pPort, enode } = node2;
    const exited = new Promise((resolve) => node2.child.once('exit', resolve));
    node2.child.kill('SIGKILL');
    await exited;
    // The survivors notice the dead link (node1 keeps node3, node3 keeps node1)...
    await waitFor(
      async () => (await peerCountOf(node1)) === 1 && (await peerCountOf(node3)) === 1,
      'nodes 1 and 3 to drop node 2',
      { node1, node3 },
      20_000,
      async () => `peer counts node1, node3: ${await peerCountOf(node1)}, ${await peerCountOf(node3)}`,
    );

    node2 = await start([...node2Args(node2Datadir), '--http.port', String(port), '--p2p.port', String(p2pPort)]);
    expect(node2.enode).toBe(enode); // same node key, same port
    // ...and re-link without anyone calling net_connectToPeer: node2 dials node1 (static), node3 redials node2.
    await waitFor(
      async () => (await peerCounts()).every((n) => n === 2),
      'net_peerCount 0x2 on all three after the restart',
      nodes(),
      30_000,
      describePeers,
    );
    const peersOfNode1 = await call<Array<{ nodeId: string | null; status: string }>>(node1.url, 'net_listPeers');
    expect(peersOfNode1.filter((p) => p.status === 'Handshaked').map((p) => p.nodeId)).toContain(nodeIdOfEnode(enode!));
    // And it syncs the blocks node1 mined while it was down.
    const target = await blockNumberOf(node1);
    await waitFor(
      async () => (await blockNumberOf(node2)) >= target,
      `restarted node2 to reach block ${target}`,
      nodes(),
      20_000,
    );
    expect((await blockAt(node2, target))!.hash).toBe((await blockAt(node1, target))!.hash);
  }, 60_000);

  it('lets a fourth node with an empty datadir and node 1 as bootnode join and catch up', async () => {
    node4 = await start(['--bootnodes', node1.enode!, '--no-mine']);
    expect(await blockNumberOf(node4)).toBe(0);
    const all = { ...nodes(), node4 };
    await waitFor(async () => (await peerCountOf(node4!)) >= 1, 'node4 to link to node1', all, 20_000);
    const target = await blockNumberOf(node1);
    expect(target).toBeGreaterThan(0);
    await waitFor(
      async () => (await blockNumberOf(node4!)) >= target,
      `node4 to reach node1's block ${target}`,
      all,
      30_000,
      async () => `node4 at ${await blockNumberOf(node4!)}`,
    );
    expect((await blockAt(node4, target))!.hash).toBe((await blockAt(node1, target))!.hash);
    expect((await blockAt(node4, 0))!.hash).toBe((await blockAt(node1, 0))!.hash);
  }, 60_000);
});

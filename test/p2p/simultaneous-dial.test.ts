/**
 * Trap (a) of etc-chain-and-p2p.md §3.3, against real node processes: two nodes that dial each other at the same
 * moment (each the other's bootnode, or net_connectToPeer on both at once) end with exactly one link, the same one
 * on both sides, and keep it. Three runs of each shape, since a race shows only sometimes; at least one run must
 * really have raced (a duplicate link dropped). A file of its own so it runs beside the rest of wire.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeIdOf } from '../../src/p2p/node-key.js';
import { freePort } from '../helpers/free-port.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { newPeerKey } from '../helpers/test-peer.js';
import { call, peeringLog, waitFor } from './multi-node-fixture.js';

const started: NodeProcess[] = [];
const dirs: string[] = [];

async function start(args: string[]): Promise<NodeProcess> {
  const node = await startNode({ args, timeoutMs: 60_000 });
  started.push(node);
  return node;
}

afterAll(async () => {
  await Promise.all(started.map((node) => node.stop()));
  for (const node of started)
    if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

interface PeerRow {
  id: string;
  nodeId: string | null;
  status: string;
}

const listPeers = (node: NodeProcess) => call<PeerRow[]>(node.url, 'net_listPeers');

function enodeOf(node: NodeProcess): string {
  if (node.enode === undefined) throw new Error('the node reported no enode on its listening line');
  return node.enode;
}

/** A datadir with a known node key, and the enode URL a node on `port` will have. */
function datadirWithKey(port: number): { datadir: string; nodeId: string; enode: string } {
  const datadir = mkdtempSync(join(tmpdir(), 'svc-node-dial-'));
  dirs.push(datadir);
  const { privateKey } = newPeerKey();
  writeFileSync(join(datadir, 'node.key'), Buffer.from(privateKey).toString('hex'), { mode: 0o600 });
  const nodeId = Buffer.from(nodeIdOf(privateKey)).toString('hex');
  return { datadir, nodeId, enode: `enode://${nodeId}@127.0.0.1:${port}` };
}

/** One value per second for `seconds` seconds. */
async function sample<T>(seconds: number, read: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < seconds; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    out.push(await read());
  }
  return out;
}

describe('trap (a): two nodes dialling each other at the same moment keep exactly one link', () => {
  /** Two dev nodes with known keys on known ports; `bootnodes`: each lists the other. */
  async function pair(bootnodes: boolean): Promise<[NodeProcess, NodeProcess, string, string]> {
    const [portA, portB] = [await freePort(), await freePort()];
    const a = datadirWithKey(portA);
    const b = datadirWithKey(portB);
    const args = (self: typeof a, port: number, other: typeof a) => [
      '--datadir',
      self.datadir,
      '--no-mine',
      '--p2p.port',
      String(port),
      '--log-level',
      'debug',
      ...(bootnodes ? ['--bootnodes', other.enode] : []),
    ];
    const [nodeA, nodeB] = await Promise.all([start(args(a, portA, b)), start(args(b, portB, a))]);
    expect(enodeOf(nodeA)).toBe(a.enode);
    expect(enodeOf(nodeB)).toBe(b.enode);
    return [nodeA, nodeB, a.nodeId, b.nodeId];
  }

  /** Settles, then checks over ~5 s that each node holds one Handshaked link to the other, the same one throughout. */
  async function expectOneStableLink(nodeA: NodeProcess, nodeB: NodeProcess, idA: string, idB: string): Promise<void> {
    const handshakedOf = async (node: NodeProcess) => (await listPeers(node)).filter((p) => p.status === 'Handshaked');
    const state = async () =>
      `A: ${JSON.stringify(await listPeers(nodeA))}\nB: ${JSON.stringify(await listPeers(nodeB))}`;
    await waitFor(
      async () => {
        const [la, lb] = [await handshakedOf(nodeA), await handshakedOf(nodeB)];
        return la.length === 1 && la[0]!.nodeId === idB && lb.length === 1 && lb[0]!.nodeId === idA;
      },
      'one Handshaked link on each side',
      { nodeA, nodeB },
      20_000,
      state,
    );
    const first = [(await handshakedOf(nodeA))[0]!.id, (await handshakedOf(nodeB))[0]!.id];
    const samples = await sample(5, async () => ({
      a: await handshakedOf(nodeA),
      b: await handshakedOf(nodeB),
      counts: [await call(nodeA.url, 'net_peerCount'), await call(nodeB.url, 'net_peerCount')],
    }));
    for (const s of samples) {
      const why = `${JSON.stringify(s)}\n--- A:\n${peeringLog(nodeA).join('\n')}\n--- B:\n${peeringLog(nodeB).join('\n')}`;
      expect(
        s.a.map((p) => [p.id, p.nodeId]),
        why,
      ).toEqual([[first[0], idB]]);
      expect(
        s.b.map((p) => [p.id, p.nodeId]),
        why,
      ).toEqual([[first[1], idA]]);
      expect(s.counts, why).toEqual(['0x1', '0x1']);
    }
  }

  const duplicatesDropped: boolean[] = [];

  it.each([1, 2, 3])(
    'run %i: each started with the other as bootnode, at the same moment',
    async () => {
      const [nodeA, nodeB, idA, idB] = await pair(true);
      await expectOneStableLink(nodeA, nodeB, idA, idB);
      await Promise.all([nodeA.stop(), nodeB.stop()]);
    },
    60_000,
  );

  it.each([1, 2, 3])(
    'run %i: net_connectToPeer on both at the same moment',
    async () => {
      const [nodeA, nodeB, idA, idB] = await pair(false);
      const [enodeA, enodeB] = [enodeOf(nodeA), enodeOf(nodeB)];
      expect(
        await Promise.all([
          call(nodeA.url, 'net_connectToPeer', [enodeB]),
          call(nodeB.url, 'net_connectToPeer', [enodeA]),
        ]),
      ).toEqual([true, true]);
      await expectOneStableLink(nodeA, nodeB, idA, idB);
      duplicatesDropped.push([nodeA, nodeB].some((n) => n.logs.some((e) => e.msg === 'p2p duplicate link dropped')));
      await Promise.all([nodeA.stop(), nodeB.stop()]);
    },
    60_000,
  );

  it('the simultaneous dials really raced (a duplicate link was dropped in at least one run)', () => {
    expect(duplicatesDropped).toHaveLength(3);
    expect(duplicatesDropped.some(Boolean), `runs with a dropped duplicate: ${duplicatesDropped}`).toBe(true);
  });
});

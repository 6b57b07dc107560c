/**
 * EIP-1459 DNS discovery against a local DNS server: the test signs a tree listing two nodes' records and a node
 * with no bootnodes finds both through it (its peers say "dns"); a tree whose root is signed by another key and
 * a tree with a loop are refused, each with its reason in the log.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRecord, recordToText } from '../../src/p2p/discovery/enr.js';
import { startTxtServer, type TxtServer } from '../helpers/dns-server.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { buildTree } from './enr-tree-fixture.js';
import { call, nodeIdOfEnode, waitFor } from './multi-node-fixture.js';

const started: NodeProcess[] = [];
let dns: TxtServer | undefined;

async function start(args: string[]): Promise<NodeProcess> {
  const node = await startNode({ args: ['--no-mine', ...args], timeoutMs: 90_000 });
  started.push(node);
  return node;
}

/** The node's own record, signed with its key from the datadir, as a tree operator would publish it. */
function recordOf(node: NodeProcess): string {
  const key = Buffer.from(readFileSync(join(node.datadir, 'node.key'), 'utf8').trim(), 'hex');
  const port = Number(new URL(node.enode!.replace(/^enode:/, 'http:')).port);
  return recordToText(buildRecord(key, { seq: 1n, ip: '127.0.0.1', tcp: port, udp: port }));
}

let listed: NodeProcess[] = [];
let seeker: NodeProcess;

beforeAll(async () => {
  listed = await Promise.all([start([]), start([])]);
  const treeKey = randomBytes(32);
  const good = buildTree(treeKey, 'nodes.example.test', listed.map(recordOf));
  const forged = buildTree(treeKey, 'forged.example.test', listed.map(recordOf), { signer: randomBytes(32) });
  const looped = buildTree(treeKey, 'loop.example.test', listed.map(recordOf), { loop: true });
  dns = await startTxtServer(new Map([...good.txt, ...forged.txt, ...looped.txt]));
  seeker = await start([
    '--discovery',
    '--discovery.interval',
    '1s',
    '--dns',
    [forged.url, looped.url, good.url].join(','),
    '--dns.server',
    dns.address,
  ]);
}, 180_000);

afterAll(async () => {
  await Promise.all(started.map((n) => n.stop()));
  await dns?.close();
});

describe('EIP-1459 DNS discovery from a local resolver', () => {
  it('finds the nodes a signed tree lists, and marks them as found through DNS', async () => {
    const ids = listed.map((n) => nodeIdOfEnode(n.enode!));
    const peers = () => call<{ nodeId: string | null; status: string; foundBy: string }[]>(seeker.url, 'net_listPeers');
    await waitFor(
      async () => {
        const list = await peers();
        return ids.every((id) => list.some((p) => p.nodeId === id && p.status === 'Handshaked'));
      },
      'the seeker to peer with both listed nodes',
      { seeker, a: listed[0]!, b: listed[1]! },
      45_000,
    );
    const found = (await peers()).filter((p) => p.nodeId !== null && ids.includes(p.nodeId));
    expect(found.map((p) => p.foundBy)).toEqual(['dns', 'dns']);
    expect(seeker.logs).toContainEqual(expect.objectContaining({ msg: 'p2p DNS tree read', records: 2 }));
  }, 60_000);

  it('refuses a tree with a forged root signature and a tree with a loop, saying why', () => {
    const refusals = seeker.logs.filter((l) => l.msg === 'p2p DNS tree refused');
    expect(refusals).toContainEqual(
      expect.objectContaining({
        tree: expect.stringContaining('@forged.'),
        reason: expect.stringMatching(/signature/),
      }),
    );
    expect(refusals).toContainEqual(
      expect.objectContaining({ tree: expect.stringContaining('@loop.'), reason: expect.stringMatching(/^loop/) }),
    );
  });
});

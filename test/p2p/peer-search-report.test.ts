/**
 * A mordor node that reaches nobody tells the operator so: a configured bootnode that refuses connections is
 * logged at info (not only debug), `p2p looking for peers` names the bootnode, the DNS tree and why it was refused,
 * and the dials tried and why they failed (refused); `/readiness` and the MCP sync status carry the same sentence. All on loopback: the bootnode
 * is a closed local port and the tree's domain has no records on a local DNS server. With `--nat extip:` the
 * printed enode carries that address.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTxtServer, type TxtServer } from '../helpers/dns-server.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { call, waitFor } from './multi-node-fixture.js';

const DEAD_ID = `${'6b6ea53a498f0895c10269a3a74b777286bd467de6425c3b512740fcc7fbc8cd'}${'281dca4ab041dd97d62b38f3d0b5b05e71f48d28a3a2f4b5de40fe1f6bf05531'}`;
const TREE = 'enrtree://AJE62Q4DUX4QMMXEHCSSCSC65TDHZYSMONSD64P3WULVLSF6MRQ3K@empty.example.test';

let node: NodeProcess;
let dns: TxtServer;
let deadPort: number;

beforeAll(async () => {
  // A port that was free a moment ago: connections to it are refused.
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => probe.once('listening', r));
  deadPort = (probe.address() as { port: number }).port;
  await new Promise((r) => probe.close(r));
  dns = await startTxtServer(new Map());
  node = await startNode({
    args: [
      '--network',
      'mordor',
      '--apis',
      'eth,net,web3,mcp',
      '--bootnodes',
      `enode://${DEAD_ID}@127.0.0.1:${deadPort}`,
      '--dns',
      TREE,
      '--dns.server',
      dns.address,
      '--nat',
      'extip:203.0.113.7',
    ],
    timeoutMs: 90_000,
  });
}, 120_000);

afterAll(async () => {
  await node?.stop();
  await dns?.close();
});

describe('a mordor node with no reachable peer', () => {
  it('says it is looking, through which bootnode and DNS tree, and how many dials it tried', async () => {
    const looking = () => node.logs.find((l) => l.msg === 'p2p looking for peers');
    await waitFor(async () => looking() !== undefined, 'the "looking for peers" line', { node }, 40_000);
    expect(looking()).toMatchObject({
      level: 'info',
      discovery: true,
      bootnodes: [`127.0.0.1:${deadPort}`],
      dnsTrees: [expect.stringMatching(/empty\.example\.test \(TXT lookup of empty\.example\.test failed/)],
    });
    expect(Number(looking()!.dialsTried)).toBeGreaterThanOrEqual(1);
    // Why the dials failed, by reason: the closed port refuses every one.
    expect(looking()!.dialFailures).toMatch(/^\d+ refused$/);
    const unreachable = node.logs.filter((l) => l.msg === 'p2p configured peer unreachable');
    expect(unreachable[0]).toMatchObject({ level: 'info', peer: expect.stringContaining(`127.0.0.1:${deadPort}`) });
    // Rate-limited: one line per peer per minute, however often it is redialled.
    expect(unreachable.length).toBe(1);
    expect(node.logs.filter((l) => l.msg === 'p2p looking for peers').length).toBe(1);

    const readiness = (await (await fetch(new URL('/readiness', node.url))).json()) as {
      checks: { name: string; status: string; info: string }[];
    };
    const peerCheck = readiness.checks.find((c) => c.name === 'peerCount')!;
    expect(peerCheck).toMatchObject({ status: 'ERROR', info: expect.stringContaining('looking for peers through') });
    expect(peerCheck.info).toContain(`127.0.0.1:${deadPort}`);
    expect(peerCheck.info).toMatch(/dial\(s\) tried \(failed: \d+ refused\)/);

    const sync = await call<{ structuredContent: { peerSearch?: string } }>(node.url, 'tools/call', [
      { name: 'mcp_sync_status' },
    ]);
    expect(sync.structuredContent.peerSearch).toContain('empty.example.test');
    const list = await call<{ structuredContent: { search: { dialsTried: number; bootnodes: string[] } } }>(
      node.url,
      'tools/call',
      [{ name: 'mcp_peer_list' }],
    );
    expect(list.structuredContent.search.bootnodes).toEqual([`127.0.0.1:${deadPort}`]);
    expect(node.logs.filter((l) => l.level === 'error' || 'stack' in l)).toEqual([]);
    // The enode others are told to dial carries the --nat address, with no loopback/wildcard note.
    const listening = node.logs.find((l) => l.msg === 'p2p listening')!;
    expect(listening.enode).toMatch(/@203\.0\.113\.7:\d+$/);
    expect(listening.note).toBeUndefined();
  }, 60_000);
});

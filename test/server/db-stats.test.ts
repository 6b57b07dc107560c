/**
 * `svc-node db stats` on a small dev datadir: refused while the node holds it, then the tables with counts the chain
 * explains (a header, total difficulty and canonical entry per block and genesis, a number entry for each but the
 * empty blocks built in bulk; a tx-index entry per
 * transaction; the contract's code apart from the trie's nodes), as JSON and as text.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import { runCli, startNode, type NodeProcess } from '../helpers/node-process.js';
import { post, request } from '../helpers/rpc.js';

const sender = DEV_ACCOUNTS[3].address.toLowerCase();
const datadir = mkdtempSync(join(tmpdir(), 'svc-node-db-stats-'));
let node: NodeProcess | undefined;

async function rpc(method: string, params: unknown[]): Promise<any> {
  const res = await post(node!.url, request(method, params));
  if (res.body.error) throw new Error(res.body.error.message);
  return res.body.result;
}

interface Table {
  tag: string;
  name: string;
  entries: number;
  keyBytes: number;
  valueBytes: number;
  diskBytes: number;
  parts?: Array<{ name: string; entries: number }>;
}

beforeAll(async () => {
  node = await startNode({ args: ['--datadir', datadir] });
  // Block 1 deploys a contract (code 0x00), blocks 2 and 3 are transfers, then 4 empty blocks: head 7.
  await rpc('eth_sendTransaction', [{ from: sender, data: '0x600180600b6000396000f300' }]);
  for (let i = 0; i < 2; i++) await rpc('eth_sendTransaction', [{ from: sender, to: sender, value: '0x1' }]);
  await rpc('anvil_mine', ['0x4']);
  expect(await rpc('eth_blockNumber', [])).toBe('0x7');
}, 60_000);

afterAll(async () => {
  await node?.stop();
  rmSync(datadir, { recursive: true, force: true });
});

describe('svc-node db stats', () => {
  it('refuses while a node holds the datadir, naming it', async () => {
    const run = await runCli(['--datadir', datadir, 'db', 'stats']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`is in use by another svc-node (pid ${node!.child.pid})`);
  });

  it('lists the tables with their entries and bytes once the node is stopped', async () => {
    await node!.stop();
    node = undefined;
    const run = await runCli(['--datadir', datadir, 'db', 'stats', '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { tables: Table[]; datadirBytes: number; chaindataBytes: number };
    const byTag = new Map(report.tables.map((t) => [t.tag, t]));
    for (const tag of ['H', 'T', 'C']) expect([tag, byTag.get(tag)?.entries]).toEqual([tag, 8]);
    // Block numbers: not for the four bulk-built empty blocks (their headers hold theirs).
    expect(byTag.get('N')?.entries).toBe(4);
    // Bodies and receipts: genesis and the three blocks with transactions; the four empty blocks anvil_mine made in
    // bulk store none (their headers commit to both being empty).
    for (const tag of ['B', 'R']) expect([tag, byTag.get(tag)?.entries]).toEqual([tag, 4]);
    expect(byTag.get('H')!.name).toBe('headers');
    expect(byTag.get('X')!.entries).toBe(3);
    const trie = byTag.get('S')!;
    expect(trie.parts).toEqual([
      { name: 'trie nodes', entries: trie.entries - 1, keyBytes: expect.any(Number), valueBytes: expect.any(Number) },
      { name: 'contract code', entries: 1, keyBytes: 34, valueBytes: 1 },
    ]);
    expect(byTag.get('M')!.entries).toBeGreaterThanOrEqual(3);
    for (const t of report.tables) expect(t.keyBytes + t.valueBytes).toBeGreaterThan(0);
    expect(report.chaindataBytes).toBeGreaterThan(0);
    expect(report.datadirBytes).toBeGreaterThan(report.chaindataBytes);

    const text = await runCli(['--datadir', datadir, 'db', 'stats']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^H\s+headers\s+8\s/m);
    expect(text.stdout).toMatch(/^\s+contract code\s+1\s+35 B/m);
  });
});

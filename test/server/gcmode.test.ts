/**
 * `--gcmode` across processes on one datadir: `svc-node db prune` turns an archive into a full datadir (refused while
 * a node holds it) and a node then opens it in full mode; an archive opened with --gcmode full prunes by itself; a
 * pruned datadir is refused as an archive with the message saying why.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand } from '../helpers/cli-command.js';
import { runCli, startNode, type NodeProcess } from '../helpers/node-process.js';
import { call } from '../helpers/rpc.js';

const started: NodeProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const node of started) await node.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const WINDOW = ['--state.keep', '16'];

async function start(datadir: string, args: string[] = []): Promise<NodeProcess> {
  const node = await startNode({ args: ['--datadir', datadir, '--no-p2p', ...args], timeoutMs: 90_000 });
  started.push(node);
  return node;
}

async function stop(node: NodeProcess): Promise<void> {
  await node.stop();
  started.splice(started.indexOf(node), 1);
}

/** An archive dev datadir with `blocks` blocks, each crediting the coinbase (so each leaves stale nodes behind). */
async function archiveDatadir(blocks: number): Promise<{ dir: string; node: NodeProcess }> {
  const dir = mkdtempSync(join(tmpdir(), 'gcmode-'));
  dirs.push(dir);
  const node = await start(dir, ['--miner.coinbase', '0x00000000000000000000000000000000000000c0']);
  await call(node.url, 'anvil_mine', [`0x${blocks.toString(16)}`]);
  return { dir, node };
}

const head = async (url: string) => BigInt(await call<string>(url, 'eth_blockNumber'));

describe('gcmode across processes', () => {
  it('db prune shrinks an archive datadir (not while a node holds it); the node then opens it in full mode', async () => {
    const { dir, node } = await archiveDatadir(300);
    const held = await runCommand(['--datadir', dir, 'db', 'prune']);
    expect(held.code).toBe(1);
    expect(held.stderr).toMatch(/cannot open the chain: .*(held|lock|in use)/i);
    await stop(node);

    const pruned = await runCommand(['--datadir', dir, ...WINDOW, 'db', 'prune']);
    expect(pruned.stderr).toBe('');
    expect(pruned.code).toBe(0);
    const done = pruned.logs.find((l) => l.msg === 'prune done')!;
    expect(done).toBeDefined();
    expect(done.swept as number).toBeGreaterThan(done.marked as number);

    const full = await start(dir, ['--gcmode', 'full', ...WINDOW]);
    expect(await head(full.url)).toBe(300n);
    const coinbase = '0x00000000000000000000000000000000000000c0';
    expect(BigInt(await call<string>(full.url, 'eth_getBalance', [coinbase, 'latest']))).toBeGreaterThan(0n);
    await call(full.url, 'anvil_mine', ['0x10']);
    expect(await head(full.url)).toBe(316n);
    await stop(full);

    // Pruned once, it cannot be an archive again.
    const refused = await runCli(
      ['--datadir', dir, '--no-p2p', '--http.port', '0', '--gcmode', 'archive'],
      undefined,
      60_000,
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain(
      'this datadir was pruned (gcmode full): its older states are gone; run with --gcmode full or start a new datadir for archive',
    );
  }, 300_000);

  it('an archive datadir opened with --gcmode full prunes in the background', async () => {
    const { dir, node } = await archiveDatadir(200);
    await stop(node);
    const full = await start(dir, ['--gcmode', 'full', ...WINDOW]);
    const deadline = Date.now() + 60_000;
    while (!full.logs.some((l) => l.msg === 'state pruned') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const line = full.logs.find((l) => l.msg === 'state pruned')!;
    expect(line).toBeDefined();
    expect(line.swept as number).toBeGreaterThan(0);
    expect(await head(full.url)).toBe(200n);
    const metrics = await (await fetch(new URL('/metrics', full.url))).text();
    const swept = /^svc_state_prune_last\{figure="swept"\} (\d+)$/m.exec(metrics);
    expect(Number(swept?.[1])).toBe(line.swept);
  }, 180_000);
});

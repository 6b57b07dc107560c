/**
 * Two Ethash dev nodes on different fork schedules (issue 42): `moved` runs Bastion from block 20
 * (`--override.bastion 20`), `plain` never, as dev defines it. Empty blocks are valid under both rule sets, so
 * only the fork ids (EIP-2124) tell them apart: `moved` announces next = 20, which `plain` accepts while its head is
 * below 20. They peer, agree on blocks 0..19, and once each passes 20 each drops the other and says why. Then the
 * datadir `moved` built is refused without the override: its blocks from 20 on ran under Bastion.
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startNode, type NodeProcess } from '../helpers/node-process.js';
import { blockAt, blockNumberOf, call, datadirWithStaticPeers, peerCountOf, waitFor } from './multi-node-fixture.js';

const FORK_BLOCK = 20;
const BLOCK_TIME = { SVC_NODE_MINING_BLOCK_TIME: '400ms' };

let plain: NodeProcess;
let moved: NodeProcess;
const datadirs: string[] = [];
const started: NodeProcess[] = [];
const nodes = () => ({ plain, moved });

async function start(args: string[]): Promise<NodeProcess> {
  const node = await startNode({
    args: [...args, '--seal', 'ethash', '--no-mine'],
    env: BLOCK_TIME,
    timeoutMs: 60_000,
  });
  started.push(node);
  return node;
}

function datadir(enodes: string[]): string {
  const dir = datadirWithStaticPeers(enodes);
  datadirs.push(dir);
  return dir;
}

const droppedLine = (node: NodeProcess) =>
  node.logs.find((l) => l.msg === 'p2p peer dropped: fork id no longer compatible') as
    | { head: string; reason: string }
    | undefined;

/**
 * Why `node` parted from the other: its own drop, or its refusal of a later handshake. Both drop at block 20, so
 * whichever reaches it first drops; the other, if the disconnect came before its own check, refuses the redial.
 */
const reasonOf = (node: NodeProcess): { head?: string; reason: string } | undefined => {
  const dropped = droppedLine(node);
  if (dropped !== undefined) return dropped;
  const rejected = node.logs.find((l) => l.msg === 'p2p peer rejected' && /fork id/.test(String(l.detail)));
  return rejected === undefined ? undefined : { reason: String(rejected.detail) };
};
const movedReason = () => reasonOf(moved)?.reason;

beforeAll(async () => {
  plain = await start(['--datadir', datadir([])]);
  moved = await start(['--datadir', datadir([plain.enode!]), '--override.bastion', String(FORK_BLOCK)]);
}, 120_000);

afterAll(async () => {
  await Promise.all(started.map((node) => node.stop()));
  for (const dir of datadirs) rmSync(dir, { recursive: true, force: true });
});

describe('two nodes, Bastion at block 20 on one', () => {
  it('prints the moved fork at start and in admin_nodeInfo', async () => {
    expect(moved.logs.some((l) => l.msg === `fork ahead: bastion at block ${FORK_BLOCK} (override)`)).toBe(true);
    expect(plain.logs.some((l) => l.msg === 'fork schedule: no fork ahead')).toBe(true);
    const info = await call<{ protocols: { eth: { config: Record<string, number>; forks: unknown[] } } }>(
      moved.url,
      'admin_nodeInfo',
    );
    expect(info.protocols.eth.config.bastionBlock).toBe(FORK_BLOCK);
    expect(info.protocols.eth.forks).toEqual([{ name: 'bastion', block: FORK_BLOCK, override: true }]);
  });

  it('peers, agrees to block 19, and each drops the other once past block 20, saying why', async () => {
    await waitFor(
      async () => (await peerCountOf(plain)) === 1 && (await peerCountOf(moved)) === 1,
      'the two nodes to peer',
      nodes(),
      30_000,
    );
    // Peered before any block: the fork ids were compared at heads below the fork.
    expect(await blockNumberOf(moved)).toBe(0);
    await call(moved.url, 'miner_start');
    await waitFor(
      async () => (await blockNumberOf(plain)) >= FORK_BLOCK - 1,
      'plain to import block 19',
      nodes(),
      60_000,
    );
    expect((await blockAt(plain, FORK_BLOCK - 1))!.hash).toBe((await blockAt(moved, FORK_BLOCK - 1))!.hash);
    // Neither dropped the other before the fork block.
    for (const node of [plain, moved]) {
      const line = droppedLine(node);
      if (line !== undefined) expect(BigInt(line.head)).toBeGreaterThanOrEqual(BigInt(FORK_BLOCK));
    }
    await waitFor(
      async () => reasonOf(plain) !== undefined && movedReason() !== undefined,
      'plain to drop moved after block 20, and both to say why',
      nodes(),
      60_000,
    );
    // plain: at 20 the peer's fork id expects a fork at 20 that plain's chain passed without one; or, when moved
    // dropped first, moved's fork id from then on (with the fork at 20 in it) is none plain's chain has.
    const byPlain = reasonOf(plain)!;
    if (byPlain.head !== undefined) expect(BigInt(byPlain.head)).toBeGreaterThanOrEqual(BigInt(FORK_BLOCK));
    expect(byPlain.reason).toMatch(
      /expects a fork at block 20, which our chain passed|matches none of our fork hashes \(ours at head (2\d|[3-9]\d)/,
    );
    // moved: once at 20 itself (the block announced before the drop), the peer is at the fork state before 20 and
    // does not know the fork at 20: said when it drops the peer, or when it refuses its redial.
    expect(movedReason()).toMatch(/remote needs update: .* before block 20, but announces next fork 0 instead of 20/);
    await waitFor(
      async () => (await peerCountOf(plain)) === 0 && (await peerCountOf(moved)) === 0,
      'both peer counts to fall to 0',
      nodes(),
      30_000,
    );
  }, 150_000);

  it("refuses to start on moved's datadir without the override, naming the fork, blocks and head", async () => {
    const dir = datadirs[1]!;
    const child = moved.child;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    const cache = join(tmpdir(), 'svc-node-test-ethash');
    const run = await runCli([
      '--seal',
      'ethash',
      '--datadir',
      dir,
      '--no-p2p',
      '--http.port',
      '0',
      '--ethash.cachedir',
      cache,
    ]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/bastion moves from block 20 to never, but the chain's head is \d+: blocks 20\.\.\d+/);
    expect(run.stderr).toMatch(/start with --override.bastion 20 as before/);
  }, 90_000);
});

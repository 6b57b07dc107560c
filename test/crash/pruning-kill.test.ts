/**
 * SIGKILL during pruning cycles (`--gcmode full`, a cycle after every block): killed in a mark phase and in a sweep
 * phase (timed from the previous cycle's figures, cycles running back to back while blocks are mined), the datadir
 * reopens in full mode with its head's whole state readable (the offline checker walks it), a restarted node
 * answers reads at the head and at the oldest state it keeps, and 100 further blocks import.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkDatadirOffline } from '../../scripts/crashloop/offline-check.js';
import { StateRetention } from '../../src/chain/state/retention.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { call, callBatch } from '../helpers/rpc.js';

const KEEP = 16;
const retention = { mode: 'full', keepStates: KEEP, checkpointInterval: 128, checkpoints: 2 } as const;
const ACCOUNTS = 2000;
const address = (i: number) => `0x${(0xa0000000 + i).toString(16).padStart(40, '0')}`;

const started: NodeProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const node of started) await node.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function start(datadir: string): Promise<NodeProcess> {
  const node = await startNode({
    args: ['--datadir', datadir, '--no-p2p', '--gcmode', 'full', '--state.keep', String(KEEP)],
    env: { SVC_NODE_STATE_PRUNE_MIN_BYTES: '1' },
    timeoutMs: 90_000,
  });
  started.push(node);
  return node;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const head = async (url: string) => BigInt(await call<string>(url, 'eth_blockNumber'));
const pruned = (node: NodeProcess) => node.logs.filter((l) => l.msg === 'state pruned');

/** Mines one block at a time until `stop` says so (each block starts the next cycle once one ends). */
async function mineUntil(node: NodeProcess, stop: () => boolean): Promise<void> {
  while (!stop()) {
    try {
      await call(node.url, 'anvil_mine', ['0x1'], 5_000);
    } catch {
      return; // killed
    }
  }
}

/** Kills `node` `delayMs` after the end of a cycle (the next one started with the next block). */
async function killDuringCycle(node: NodeProcess, delayFrom: (last: Record<string, unknown>) => number) {
  let killed = false;
  const mining = mineUntil(node, () => killed);
  const seen = pruned(node).length;
  while (pruned(node).length < seen + 2) await sleep(20);
  const last = pruned(node).at(-1)!;
  await sleep(delayFrom(last));
  const exited = new Promise((r) => node.child.once('exit', r));
  node.child.kill('SIGKILL');
  killed = true;
  await exited;
  await mining;
  started.splice(started.indexOf(node), 1);
  return last;
}

async function checkAfterKill(datadir: string): Promise<void> {
  const offline = await checkDatadirOffline(datadir, undefined, retention);
  expect(Object.values(offline.failures).flat()).toEqual([]);
  expect(offline.counts.accounts).toBeGreaterThan(ACCOUNTS);
  const node = await start(datadir);
  const top = await head(node.url);
  const oldest = new StateRetention(retention).oldestKept(top);
  const balance = (at: bigint) => call<string>(node.url, 'eth_getBalance', [address(7), `0x${at.toString(16)}`]);
  expect(BigInt(await balance(top))).toBe(7000n);
  expect(BigInt(await balance(oldest))).toBe(7000n);
  await call(node.url, 'anvil_mine', ['0x64']);
  expect(await head(node.url)).toBe(top + 100n);
  await node.stop();
  started.splice(started.indexOf(node), 1);
}

describe('kill -9 during state pruning', () => {
  it('leaves a datadir whose kept states are whole, in the mark phase and in the sweep phase', async () => {
    const datadir = mkdtempSync(join(tmpdir(), 'prune-kill-'));
    dirs.push(datadir);
    let node = await start(datadir);
    // A state big enough that a cycle takes a while: many accounts, set in place (dev state edits).
    const edits = Array.from(
      { length: ACCOUNTS },
      (_, i) => ['anvil_setBalance', [address(i), `0x${(i * 1000).toString(16)}`]] as const,
    );
    await callBatch(node.url, edits, 250);
    // Past the first states, so the oldest kept one is a sparse checkpoint below the window.
    await call(node.url, 'anvil_mine', ['0x120']);

    const mark = await killDuringCycle(node, (last) => ((last.markSeconds as number) * 1000) / 2);
    expect(mark.markSeconds as number).toBeGreaterThan(0);
    await checkAfterKill(datadir);

    node = await start(datadir);
    await killDuringCycle(node, (last) => {
      const mark = (last.markSeconds as number) * 1000;
      return mark + ((last.seconds as number) * 1000 - mark) / 2;
    });
    await checkAfterKill(datadir);
  }, 600_000);
});

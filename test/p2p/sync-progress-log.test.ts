/**
 * The progress lines of a sync catch-up, with the real Synchronizer and two real chain engines in one process:
 * the peer is a stand-in session that serves headers and bodies from the source engine through the node's own
 * EthServer, a little slowly, so that the catch-up spans several progress intervals. Every line must carry a
 * percent that only grows, a rate and an ETA; the lines stop when the sync ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainEngine } from '../../src/chain/engine/engine.js';
import { EthServer } from '../../src/p2p/eth/serve.js';
import type { EthSession } from '../../src/p2p/eth/session.js';
import { Synchronizer } from '../../src/p2p/sync.js';

const BLOCKS = 150;
const dirs: string[] = [];
let source: ChainEngine;
let joiner: ChainEngine;

async function openEngine(): Promise<ChainEngine> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-sync-progress-'));
  dirs.push(dir);
  return ChainEngine.open({ dataDir: dir, network: 'dev', powCacheDir: join(tmpdir(), 'svc-node-test-ethash') });
}

beforeAll(async () => {
  [source, joiner] = await Promise.all([openEngine(), openEngine()]);
  await source.miner.mineBlocks(BLOCKS, { withTransactions: false });
}, 60_000);

afterAll(async () => {
  await Promise.all([source?.close(), joiner?.close()]);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('sync progress lines', () => {
  it('come at a steady rate during a catch-up, with percent, blocks per second and ETA, and stop after it', async () => {
    const server = new EthServer(source.chain, source.pool);
    const head = source.chain.getHead();
    const peer = {
      ready: true,
      td: source.chain.getHeadTotalDifficulty(),
      bestHash: head.hash(),
      bestNumber: head.header.number,
      knownBlocks: { add: () => undefined, has: () => false },
      link: { remoteId: new Uint8Array(64).fill(7) },
      // Small batches, answered after a pause: a slow peer.
      async getBlockHeaders(req: { origin: bigint | Uint8Array; amount: number; skip: number; reverse: boolean }) {
        await pause(20);
        return server.headers({ requestId: 0n, ...req, amount: Math.min(req.amount, 16) });
      },
      async getBlockBodies(hashes: readonly Uint8Array[]) {
        return server.bodies(hashes);
      },
    } as unknown as EthSession;

    const lines: Array<{ msg: string; fields: Record<string, unknown> }> = [];
    const record = (msg: string, fields: Record<string, unknown> = {}) => lines.push({ msg, fields });
    const sync = new Synchronizer({
      chain: joiner.chain,
      sessions: () => [peer],
      onBadPeer: (_s, reason) => record('bad peer', { reason }),
      log: { info: record, debug: () => undefined },
      progressIntervalMs: 100,
    });
    sync.trigger();
    await sync.idle();
    expect(joiner.chain.getHead().hash()).toEqual(head.hash());

    const progress = lines.filter((l) => l.msg === 'sync progress');
    expect(lines[0]!.msg).toBe('sync started');
    expect(lines.at(-1)!.msg).toBe('sync reached target');
    expect(progress.length, JSON.stringify(lines)).toBeGreaterThanOrEqual(3);
    for (const { fields } of progress) {
      expect(fields).toMatchObject({ peer: '0707070707070707', target: String(BLOCKS), total: BLOCKS });
      expect(fields.percent).toBeGreaterThanOrEqual(0);
      expect(fields.percent).toBeLessThanOrEqual(100);
      expect(typeof fields.blocksPerSecond).toBe('number');
      expect(fields.eta).toMatch(/^(\d+s|\d+m\d\ds|\d+h\d\dm|unknown)$/);
    }
    const percents = progress.map((l) => l.fields.percent as number);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(progress.some((l) => (l.fields.blocksPerSecond as number) > 0)).toBe(true);

    // Stopped with the sync: no line arrives afterwards.
    const count = lines.length;
    await pause(300);
    expect(lines.length).toBe(count);
    sync.close();
  });
});

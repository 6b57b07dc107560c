/**
 * Snap sync end to end: three dev nodes serve a chain with a few hundred accounts and contracts holding storage
 * (one of them also seals an empty block every second, so the head keeps moving), and a fresh node started with
 * `--sync snap` downloads the state of a pivot block from them, hands over to full sync and follows the head.
 * Every account and slot it reads at its pivot equals what the serving node reads there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { newPeerKey, TestPeerListener } from '../helpers/test-peer.js';
import { blockNumberOf, call, datadirWithStaticPeers, waitFor } from './multi-node-fixture.js';
import { buildServedState, lyingSnapAnswers, type ServedState, stateAt } from './snap-sync-fixture.js';

const PIVOT_DISTANCE = 8;
const SNAP_ARGS = ['--no-mine', '--sync', 'snap', '--sync.pivot-distance', String(PIVOT_DISTANCE)];
const doneLine = (node: NodeProcess) => node.logs.find((l) => l.msg === 'snap sync done');
const hexBlock = (n: unknown) => `0x${BigInt(n as string).toString(16)}`;
const started: NodeProcess[] = [];
let miner: NodeProcess;
let servers: NodeProcess[];
let served: ServedState;

async function start(args: string[], env?: NodeJS.ProcessEnv): Promise<NodeProcess> {
  const node = await startNode({ args, ...(env ? { env } : {}), timeoutMs: 60_000 });
  started.push(node);
  return node;
}

beforeAll(async () => {
  miner = await start(['--datadir', datadirWithStaticPeers([])], { SVC_NODE_MINING_BLOCK_TIME: '1s' });
  served = await buildServedState(miner, 6, 40, 40);
  const a = await start(['--datadir', datadirWithStaticPeers([miner.enode!]), '--no-mine']);
  const b = await start(['--datadir', datadirWithStaticPeers([miner.enode!, a.enode!]), '--no-mine']);
  servers = [miner, a, b];
  await waitFor(
    async () => (await blockNumberOf(b)) >= 2 * PIVOT_DISTANCE && (await blockNumberOf(a)) >= 2 * PIVOT_DISTANCE,
    'the serving nodes to hold the chain',
    { miner, a, b },
    60_000,
  );
}, 180_000);

afterAll(async () => {
  await Promise.all(started.map((node) => node.stop()));
});

describe('snap sync', () => {
  it('a fresh node snap-syncs from three peers, its state at the pivot equals theirs, then it follows', async () => {
    const fresh = await start([
      '--datadir',
      datadirWithStaticPeers(servers.map((s) => s.enode!)),
      '--no-mine',
      '--sync',
      'snap',
      '--sync.pivot-distance',
      String(PIVOT_DISTANCE),
    ]);
    const done = () => fresh.logs.find((l) => l.msg === 'snap sync done');
    await waitFor(async () => done() !== undefined, 'snap sync done', { fresh, miner }, 120_000);
    const pivot = `0x${BigInt(done()!.pivot as string).toString(16)}`;
    expect(Number(pivot)).toBeGreaterThan(0);
    // The state came from the peers as ranges (every account, slot and code), not from executing blocks.
    expect(done()!.accounts as number).toBeGreaterThanOrEqual(served.addresses.length);
    expect(done()!.slots as number).toBeGreaterThanOrEqual(served.contracts.length * served.slots);
    expect(done()!.codes as number).toBeGreaterThanOrEqual(served.contracts.length);
    expect(await stateAt(fresh, served, pivot)).toEqual(await stateAt(miner, served, pivot));
    // Full sync takes over from the pivot: the node reaches the miner's head and keeps the same state root.
    await waitFor(
      async () => (await blockNumberOf(fresh)) >= (await blockNumberOf(miner)) - 1,
      'the synced node to follow the head',
      { fresh, miner },
      60_000,
    );
    const head = await blockNumberOf(fresh);
    const [ours, theirs] = await Promise.all(
      [fresh, miner].map((n) =>
        call<{ stateRoot: string }>(n.url, 'eth_getBlockByNumber', [`0x${head.toString(16)}`, false]),
      ),
    );
    expect(ours!.stateRoot).toBe(theirs!.stateRoot);
    // eth_syncing reports the history backfill below the pivot until it is done, then false.
    await waitFor(async () => (await call(fresh.url, 'eth_syncing', [])) === false, 'eth_syncing false', { fresh });
  }, 240_000);

  it('drops a peer that answers with a bad proof or a wrong node, with the reason, and syncs from the others', async () => {
    const liar = new TestPeerListener(newPeerKey().privateKey, { onMessage: lyingSnapAnswers });
    await liar.start();
    try {
      const fresh = await start([
        '--datadir',
        datadirWithStaticPeers([liar.enode, miner.enode!, servers[1]!.enode!]),
        ...SNAP_ARGS,
      ]);
      await waitFor(async () => doneLine(fresh) !== undefined, 'snap sync done', { fresh, miner }, 120_000);
      const dropped = fresh.logs.find((l) => l.msg === 'p2p peer dropped for a bad block or answer');
      // Account ranges come before any healing, so the bad proof is what gives the liar away.
      expect(dropped?.reason).toMatch(/account range whose proof does not verify/);
      const blocked = await call<{ id: string; reason: string }[]>(fresh.url, 'net_listBlacklistedPeers', []);
      expect(blocked.map((b) => b.id)).toContain(liar.nodeId);
      const pivot = hexBlock(doneLine(fresh)!.pivot);
      expect(await stateAt(fresh, served, pivot)).toEqual(await stateAt(miner, served, pivot));
    } finally {
      await liar.close();
    }
  }, 240_000);

  it('killed with SIGKILL after the header chain is stored, a restarted node moves its pivot, goes on and completes', async () => {
    const datadir = datadirWithStaticPeers(servers.map((s) => s.enode!));
    const first = await start(['--datadir', datadir, ...SNAP_ARGS]);
    // Killed as soon as eth_syncing shows the snap sync past its header chain (its record is stored by then).
    let phase: string | undefined;
    let firstPivot = 0;
    while (phase === undefined || phase === 'headers') {
      const status = await call<false | { snapPhase?: string; pivotBlock?: string }>(first.url, 'eth_syncing', []);
      if (status !== false) {
        phase = status.snapPhase;
        firstPivot = Number(status.pivotBlock);
      }
      expect(doneLine(first)).toBeUndefined();
    }
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    // While it is down the miner goes 2 × distance past that pivot: the restarted sync must move to a newer one
    // and heal what changed in between, so its state mixes nothing of the old pivot.
    await waitFor(
      async () => (await blockNumberOf(miner)) > firstPivot + 2 * PIVOT_DISTANCE + 1,
      'the head to pass the old pivot',
      { miner },
      60_000,
    );
    const again = await start(['--datadir', datadir, ...SNAP_ARGS]);
    await waitFor(async () => doneLine(again) !== undefined, 'snap sync done after restart', { again, miner }, 120_000);
    const resumed = again.logs.find((l) => l.msg === 'snap sync resumed');
    expect(resumed?.phase).toMatch(/^(accounts|healing)$/);
    expect(again.logs.some((l) => l.msg === 'snap sync pivot moved')).toBe(true);
    expect(Number(doneLine(again)!.pivot)).toBeGreaterThan(firstPivot);
    const pivot = hexBlock(doneLine(again)!.pivot);
    expect(await stateAt(again, served, pivot)).toEqual(await stateAt(miner, served, pivot));
  }, 240_000);
});

/**
 * The RPC's latency while a node prunes: a node is started with `--gcmode full` on a copy of the datadir
 * bench/prune-cycle.ts built (`--base DIR`), one block is mined to start a cycle (the trigger set to 1 byte), and
 * eth_blockNumber is asked one call at a time, `--gap` ms apart, until the node logs the cycle's end. Prints the
 * calls' latency (p50, p99, max) during the cycle and the cycle's own figures.
 *   npx tsx bench/prune-cycle.ts --base /tmp/prune-base   # once
 *   npx tsx bench/prune-rpc.ts --base /tmp/prune-base [--gap 5] [--code sources|bundle]
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startNode } from '../test/helpers/node-process.js';
import { call } from '../test/helpers/rpc.js';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    gap: { type: 'string', default: '5' },
    code: { type: 'string', default: 'bundle' },
  },
});
if (values.base === undefined) throw new Error('--base DIR: a datadir built by bench/prune-cycle.ts --base DIR');
const gapMs = Number(values.gap);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const datadir = mkdtempSync(join(tmpdir(), 'prune-rpc-'));
cpSync(values.base, datadir, { recursive: true });
const node = await startNode({
  args: ['--datadir', datadir, '--no-p2p', '--seal', 'ethash', '--no-mine', '--gcmode', 'full', '--state.keep', '128'],
  env: { SVC_NODE_STATE_PRUNE_MIN_BYTES: '1' },
  code: values.code as 'sources' | 'bundle',
  timeoutMs: 120_000,
});
try {
  const pruned = () => node.logs.find((l) => l.msg === 'state pruned');
  // Warm the RPC path before the cycle starts.
  for (let i = 0; i < 20; i++) await call(node.url, 'eth_blockNumber');
  await call(node.url, 'anvil_mine', ['0x1']);
  const latencies: number[] = [];
  const slow: string[] = [];
  const t0 = performance.now();
  while (pruned() === undefined) {
    const t = performance.now();
    await call(node.url, 'eth_blockNumber');
    const ms = performance.now() - t;
    latencies.push(ms);
    if (ms > 50) slow.push(`${ms.toFixed(0)} ms at ${((t - t0) / 1000).toFixed(2)} s`);
    await sleep(gapMs);
  }
  if (slow.length > 0) console.log(`calls over 50 ms: ${slow.join(', ')}`);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
  console.log(
    `eth_blockNumber during the cycle: ${latencies.length} calls, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, ` +
      `max ${latencies.at(-1)!.toFixed(1)} ms, over 50 ms: ${latencies.filter((l) => l > 50).length}`,
  );
  const f = pruned()!;
  console.log(
    `cycle: ${f.seconds} s (mark ${f.markSeconds} s), marked ${f.marked}, swept ${f.swept}, longest slice ` +
      `${f.longestSliceMs} ms (mark ${f.longestMarkSliceMs}, sweep ${f.longestSweepTurnMs})`,
  );
} finally {
  await node.stop();
  rmSync(datadir, { recursive: true, force: true });
}

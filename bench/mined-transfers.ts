/**
 * `npx tsx bench/mined-transfers.ts` (also run by `npm run bench`): signed value transfers sent to the node's
 * transaction pool and mined by the dev miner, per second, in one process with the engine as `npm start` runs it.
 *
 * Before the clock: the transfers are signed (a client's work) as raw bytes by the 10 dev accounts. On the clock:
 * every raw transfer goes through `pool.add` (decode, hash, sender recovery on the worker thread, pool checks);
 * the dev miner assembles blocks from the pending set (as many as fit under the 30M gas limit), seals each (the dev
 * default, instant: no hashing; BENCH_MINED_SEAL=ethash: a real Ethash solution), imports it (state, receipts,
 * indexes in one LevelDB batch) and clears the pool. The clock stops when the last transfer is in a block. Issue 3's
 * target: at least 3,000 per second.
 *
 * Knobs: BENCH_MINED_TXS (5000 per run), BENCH_MINED_RUNS (3), BENCH_MINED_SEAL (instant | ethash; default instant, as
 * `npm start` runs dev). Output: bench/results/mined-transfers.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createLegacyTx } from '@ethereumjs/tx';
import { Address, hexToBytes } from '@ethereumjs/util';
import { ChainEngine } from '../src/chain/engine/engine.js';
import { DEV_ACCOUNTS } from '../src/chain/networks/index.js';
import { SEAL_MODES, type SealMode } from '../src/chain/engine/seal-mode.js';
import { tempDir } from '../test/chain/engine/fixtures.js';

const repo = fileURLToPath(new URL('../', import.meta.url));
const perRun = Number(process.env.BENCH_MINED_TXS ?? 5000);
const runs = Number(process.env.BENCH_MINED_RUNS ?? 3);
const seal = (process.env.BENCH_MINED_SEAL ?? 'instant') as SealMode;
if (!SEAL_MODES.includes(seal))
  throw new Error(`BENCH_MINED_SEAL must be one of ${SEAL_MODES.join(', ')}, got ${seal}`);
const SENDERS = 10;
const GWEI = 1_000_000_000n;

interface RunResult {
  readonly perSecond: number;
  readonly ms: number;
  readonly cpuMs: number;
  readonly blocks: number;
}

const keys = DEV_ACCOUNTS.slice(0, SENDERS).map((a) => hexToBytes(a.privateKey as `0x${string}`));
const coinbase = new Uint8Array(20).fill(0xcb);

function signTransfers(engine: ChainEngine, count: number, firstNonce: bigint): Uint8Array[] {
  const common = engine.chain.txCommonAt(engine.chain.getHead().header.number + 1n);
  const recipient = new Address(new Uint8Array(20).fill(0x77));
  return Array.from({ length: count }, (_, i) =>
    createLegacyTx(
      {
        nonce: firstNonce + BigInt(Math.floor(i / SENDERS)),
        to: recipient,
        value: 1n,
        gasLimit: 21_000n,
        gasPrice: GWEI,
      },
      { common },
    )
      .sign(keys[i % SENDERS]!)
      .serialize(),
  );
}

/** Sends `raws` into the pool and resolves when the miner has sealed all of them. */
async function sendAndMine(engine: ChainEngine, raws: readonly Uint8Array[]): Promise<RunResult> {
  let mined = 0;
  let blocks = 0;
  let done: () => void = () => undefined;
  const allMined = new Promise<void>((resolve) => (done = resolve));
  const onSealed = (sealed: { transactions: readonly unknown[] }) => {
    blocks++;
    mined += sealed.transactions.length;
    if (mined >= raws.length) done();
  };
  engine.miner.on('sealed', onSealed);
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(raws.map((raw) => engine.pool.add(raw)));
  await allMined;
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  engine.miner.off('sealed', onSealed);
  return { perSecond: (raws.length * 1000) / ms, ms, cpuMs: (used.user + used.system) / 1000, blocks };
}

const dir = tempDir('bench-mined-');
const engine = await ChainEngine.open({
  dataDir: dir.dir,
  network: 'dev',
  seal,
  powCacheDir: join(tmpdir(), 'svc-node-bench-ethash'),
  // Bench-sized pool: the product defaults (1,000 in all, 256 per sender) would refuse part of the burst.
  pool: { maxSize: 2 * perRun, maxPerSender: perRun },
  mining: { coinbase },
});
const results: RunResult[] = [];
try {
  engine.miner.start();
  let nonce = 0n;
  // Warm-up: the Ethash epoch cache (ethash), the recovery worker, JIT of every path.
  const warmUp = signTransfers(engine, 1000, nonce);
  nonce += BigInt(warmUp.length / SENDERS);
  await sendAndMine(engine, warmUp);
  for (let run = 0; run < runs; run++) {
    const raws = signTransfers(engine, perRun, nonce);
    nonce += BigInt(perRun / SENDERS);
    const result = await sendAndMine(engine, raws);
    results.push(result);
    process.stdout.write(
      `run ${run + 1}: ${perRun} transfers in ${result.ms.toFixed(0)} ms = ${Math.round(result.perSecond)}/s ` +
        `(${result.blocks} blocks, process CPU ${((result.cpuMs * 1000) / perRun).toFixed(0)} µs per transfer)\n`,
    );
  }
} finally {
  await engine.close();
  dir.remove();
}

const sorted = [...results].sort((a, b) => a.perSecond - b.perSecond);
const median = sorted[Math.floor(sorted.length / 2)]!;
const report = [
  '# Benchmark: signed transfers sent to the pool and mined (dev node engine, one process)',
  '',
  `Date: ${new Date().toISOString()}; Node ${process.version}; ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; load average when done: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(', ')}.`,
  '',
  `${runs} runs of ${perRun} transfers from ${SENDERS} senders after a warm-up of 1,000; pool.add → dev miner (${seal === 'instant' ? 'instant seal, no hashing' : 'real Ethash seal'}) → import.`,
  '',
  '| run | transfers/s | ms | blocks | process CPU per transfer (µs, both threads) |',
  '|---:|---:|---:|---:|---:|',
  ...results.map(
    (r, i) =>
      `| ${i + 1} | ${Math.round(r.perSecond)} | ${r.ms.toFixed(0)} | ${r.blocks} | ${((r.cpuMs * 1000) / perRun).toFixed(0)} |`,
  ),
  '',
  `**Median: ${Math.round(median.perSecond)} mined transfers per second** (target ≥ 3,000: ${median.perSecond >= 3000 ? 'met' : 'not met'}).`,
  '',
].join('\n');
mkdirSync(join(repo, 'bench/results'), { recursive: true });
writeFileSync(join(repo, 'bench/results/mined-transfers.md'), report);
process.stdout.write('\n' + report);

/**
 * `npx tsx bench/transfer-phases.ts` (a diagnostic, not part of `npm run bench`): where the time of one ERC-20
 * transfer, sent and mined on its own, goes inside the engine (no HTTP). It answers "why is each sent-and-mined
 * transfer ~5 ms over HTTP" in the peer report's reasons with figures instead of a guess.
 *
 * Before the clock the transfers are signed. On the clock each is added to the pool and the dev miner seals it
 * (instant seal) in a block of its own; the next is sent once the block is in. The engine's phases are timed by
 * wrapping their methods (private ones too: this script reads the engine, it is not an API user): wall time per
 * transfer, so an awaited LevelDB write counts though the main thread is free meanwhile. Phases nest (produce holds
 * assemble and importBlock). Also printed: the records each block's LevelDB batch holds, by key kind.
 *
 * Knobs: N (1000 timed transfers after 200 discarded); DURABLE=1 awaits each block's LevelDB write (the mordor/etc
 * default) instead of the dev chain's write-behind; HEAP=<file> samples every allocation of the timed transfers
 * (garbage included, heap-sampling.ts), writes the profile there and prints the bytes per transfer by site; with
 * HEAP_SURVIVORS=1 only what outlived a scavenge (promoted: the old generation's churn, found by mark-sweeps);
 * CPUPROF=<file> writes a CPU profile of the timed transfers only (no start-up, no warm-up: the steady state,
 * for bench/profile-summary.ts); PERF=<file> samples the main thread's CPU over the timed transfers with Linux perf
 * (bench/perf-main.ts: run with NODE_OPTIONS=--perf-basic-prof; PERF_FOCUS=<fn,…> prints those functions' callees);
 * WARMUP (200) transfers before the clock (1000+ for V8's optimised code); BURST=<k> sends the timed transfers k at a
 * time (blocks of k). Per call it prints each phase's median and 25th percentile, and the runner's applies split into
 * the first of its block and the others: in blocks of 20 the first apply was 3-6x the others (cold caches after the
 * rest of a block's work, not per-block objects: round 20 of bench/results/transfer-server-time.md).
 */
import { join } from 'node:path';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Interface, getCreateAddress } from 'ethers';
import { tmpdir } from 'node:os';
import { createLegacyTx } from '@ethereumjs/tx';
import { Address, hexToBytes } from '@ethereumjs/util';
import { ChainEngine } from '../src/chain/engine/engine.js';
import { BlockRunner } from '../src/chain/exec/block-runner.js';
import { Blockchain } from '../src/chain/blockchain/blockchain.js';
import { BlockAssembler } from '../src/chain/assembly/assembler.js';
import { ForkChoice } from '../src/chain/import/fork-choice.js';
import { BlockValidator } from '../src/chain/import/validate.js';
import { TxPool } from '../src/chain/txpool/txpool.js';
import { TxAdmission } from '../src/chain/txpool/admission.js';
import { BlockProduction } from '../src/chain/miner/production.js';
import { SealChecker } from '../src/chain/exec/seal-checker.js';
import { DEV_ACCOUNTS } from '../src/chain/networks/index.js';
import { tempDir } from '../test/chain/engine/fixtures.js';
import { startHeapSampling } from './heap-sampling.js';
import { perfMain } from './perf-main.js';
import { untilSealed } from './sealed-transactions.js';
import { Session } from 'node:inspector/promises';
/** utime + stime (ms) of each thread of this process, by thread id, with its name. */
function threadCpuMs(): Map<string, { name: string; ms: number }> {
  const out = new Map<string, { name: string; ms: number }>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(tid, { name: `${name}:${tid}`, ms: (Number(rest[11]) + Number(rest[12])) * 10 });
    } catch {}
  }
  return out;
}
/** utime + stime of this process's main thread (Linux /proc, 10 ms ticks: meaningful over seconds). */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
const key = hexToBytes(DEV_ACCOUNTS[1]!.privateKey as `0x${string}`);
const dir = tempDir('transfer-phases-');
const engine = await ChainEngine.open({
  dataDir: dir.dir,
  network: 'dev',
  seal: 'instant',
  powCacheDir: join(tmpdir(), 'svc-node-bench-ethash'),
  mining: { coinbase: new Uint8Array(20).fill(0xcb) },
  writeBehind: process.env.DURABLE !== '1',
});
engine.miner.start();
let nonce = 0n;
const artifact = JSON.parse(readFileSync(new URL('./contracts/BenchToken.json', import.meta.url), 'utf8'));
const iface = new Interface(artifact.abi);
const senderAddr = new Address(hexToBytes(DEV_ACCOUNTS[1]!.address as `0x${string}`));
const token = new Address(hexToBytes(getCreateAddress({ from: senderAddr.toString(), nonce: 0 }) as `0x${string}`));
const common = () => engine.chain.txCommonAt(engine.chain.getHead().header.number + 1n);
function deploy() {
  const data = hexToBytes((artifact.bytecode + iface.encodeDeploy([10n ** 27n]).slice(2)) as `0x${string}`);
  return createLegacyTx(
    { nonce: nonce++, value: 0n, data, gasLimit: 1_500_000n, gasPrice: 10n ** 9n },
    { common: common() },
  )
    .sign(key)
    .serialize();
}
const transferData = hexToBytes(
  iface.encodeFunctionData('transfer', ['0x90F79bf6EB2c4f870365E785982E1f101E93b906', 1n]) as `0x${string}`,
);
const transfer = () =>
  createLegacyTx(
    { nonce: nonce++, to: token, value: 0n, data: transferData, gasLimit: 80_000n, gasPrice: 10n ** 9n },
    { common: common() },
  )
    .sign(key)
    .serialize();
/** BURST transfers sent at once (the dev miner seals what is pending in one block), awaited until all are mined. */
async function sendBurst(raws: readonly Uint8Array[]): Promise<void> {
  const sealed = untilSealed(engine.miner, raws.length);
  await Promise.all(raws.map((r) => engine.pool.add(r)));
  await sealed;
}
async function sendMined(r: Uint8Array): Promise<number> {
  const sealed = new Promise<void>((resolve) => {
    const f = (s: { transactions: readonly unknown[] }) => {
      if (s.transactions.length) {
        engine.miner.off('sealed', f);
        resolve();
      }
    };
    engine.miner.on('sealed', f);
  });
  const t = performance.now();
  await engine.pool.add(r);
  await sealed;
  return performance.now() - t;
}
const phases = new Map<string, number>();
/** Every timed call's wall time (ms) by phase; the runner's applies also as the first of a block and the others. */
const perCall = new Map<string, number[]>();
let timing = false;
let appliesInBlock = 0;
function noteCall(label: string, ms: number) {
  let calls = perCall.get(label);
  if (calls === undefined) perCall.set(label, (calls = []));
  calls.push(ms);
}
function wrap(obj: any, name: string, label = name) {
  const orig = obj[name];
  obj[name] = function (...args: unknown[]) {
    const t = performance.now();
    if (label === 'runner.start') appliesInBlock = 0;
    const first = label === 'runner.apply' && appliesInBlock++ === 0;
    const out = orig.apply(this, args);
    const done = () => {
      const ms = performance.now() - t;
      phases.set(label, (phases.get(label) ?? 0) + ms);
      if (!timing) return;
      noteCall(label, ms);
      if (label === 'runner.apply') noteCall(first ? 'runner.apply (first of its block)' : 'runner.apply (others)', ms);
    };
    if (out && typeof out.then === 'function') return out.finally(done);
    done();
    return out;
  };
}
/** The q-quantile of `values`. */
function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(q * (sorted.length - 1))]!;
}
const P = (c: any) => c.prototype;
wrap(BlockRunner, 'start', 'runner.start');
wrap(P(BlockRunner), 'apply', 'runner.apply');
wrap(P(BlockRunner), 'finish', 'runner.finish');
wrap(P(BlockAssembler), 'assemble');
wrap(P(Blockchain), 'importBlock');
wrap(P(BlockValidator), 'checkHeader');
wrap(P(ForkChoice), 'switchHead');
wrap(P(ForkChoice), 'stageCanonicalSwitch');
wrap((engine.chain as any).db, 'write', 'db.write');
wrap((engine.chain as any).store, 'stageBlock', 'store.stageBlock');
wrap(P(TxPool), 'add', 'pool.add');
wrap(P(TxAdmission), 'checkStatic', 'pool.checkStatic');
wrap(P(TxPool), 'refreshAfterBlock', 'pool.refreshAfterBlock');
wrap(P(BlockProduction), 'settle', 'miner.settle');
wrap(P(BlockProduction), 'produce', 'miner.produce');
wrap(P(SealChecker), 'room', 'sealChecks.room');
// Seal-check traffic: runs posted, reads asked by the worker (messages and items).
const sealMsgs = { runs: 0, jobs: 0, asks: 0, items: 0 };
const origSend = P(SealChecker).send;
P(SealChecker).send = function (jobs: unknown[]) {
  sealMsgs.runs++;
  sealMsgs.jobs += jobs.length;
  return origSend.call(this, jobs);
};
const origReads = P(SealChecker).answerReads;
P(SealChecker).answerReads = function (m: { items: unknown[] }) {
  sealMsgs.asks++;
  sealMsgs.items += m.items.length;
  return origReads.call(this, m);
};
wrap(P(BlockProduction), 'sealNow', 'miner.sealNow');
const opCounts = new Map<string, number>();
const origWrite = (engine.chain as any).db.write;
(engine.chain as any).db.write = function (batch: { ops: { key: Uint8Array; value?: Uint8Array }[] }) {
  // Records by their key's one-letter tag (src/chain/db/keys.ts; 'S' = a state node) and key length.
  for (const op of batch.ops) {
    const kind = `'${String.fromCharCode(op.key[0]!)}' ${op.key.length} B`;
    opCounts.set(kind, (opCounts.get(kind) ?? 0) + 1);
  }
  return origWrite.call(this, batch);
};
// LevelDB's own writes (write-behind groups blocks into one), counted below the queue.
const level = (engine.chain as any).db.level;
const origBatch = level.batch;
let levelWrites = 0;
level.batch = function (...args: unknown[]) {
  levelWrites++;
  return origBatch.apply(this, args);
};
await sendMined(deploy());
const N = Number(process.env.N ?? 1000);
const W = Number(process.env.WARMUP ?? 200);
const raws = Array.from({ length: N + W }, transfer);
for (let i = 0; i < W; i++) await sendMined(raws[i]!);
phases.clear();
timing = true;
const heap = process.env.HEAP ? await startHeapSampling(4096, process.env.HEAP_SURVIVORS === '1') : undefined;
const profiler = process.env.CPUPROF ? new Session() : undefined;
if (profiler !== undefined) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
const perf = process.env.PERF ? await perfMain(process.env.PERF) : undefined;
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const main0 = mainThreadCpuMs();
const threads0 = threadCpuMs();
const BURST = Number(process.env.BURST ?? 1);
if (BURST <= 1) for (let i = W; i < N + W; i++) await sendMined(raws[i]!);
else for (let i = W; i < N + W; i += BURST) await sendBurst(raws.slice(i, Math.min(i + BURST, N + W)));
const ms = (performance.now() - t0) / N;
await perf?.stop(N, 'transfer');
if (profiler !== undefined) {
  const { profile } = await profiler.post('Profiler.stop');
  profiler.disconnect();
  writeFileSync(process.env.CPUPROF!, JSON.stringify(profile));
}
const cpu = process.cpuUsage(cpu0);
// CPU time (all threads, LevelDB's included) says more than wall time on a busy machine.
const cpuMs = (cpu.user + cpu.system) / 1000 / N;
// The main thread's own CPU time: neither the other threads' work nor the waits of a preempted event loop.
const mainMs = (mainThreadCpuMs() - main0) / N;
console.log(
  `per transfer ${ms.toFixed(3)} ms (${(1000 / ms).toFixed(0)}/s), CPU ${cpuMs.toFixed(3)} ms, ` +
    `main thread CPU ${mainMs.toFixed(3)} ms`,
);
const threads1 = threadCpuMs();
console.log(
  `CPU per transfer by thread (ms): ${[...threads1]
    .map(([tid, t]) => [t.name, t.ms - (threads0.get(tid)?.ms ?? 0)] as const)
    .filter(([, ms]) => ms > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([name, ms]) => `${name} ${(ms / N).toFixed(2)}`)
    .join(', ')}`,
);
for (const [k, v] of [...phases].sort((a, b) => b[1] - a[1])) console.log(`${(v / N).toFixed(3).padStart(7)} ms  ${k}`);
// Per call: robust to a preempted call on a loaded machine (the totals above are not).
console.log('per call, µs: median / 25th percentile (calls)');
for (const [k, calls] of [...perCall].sort((a, b) => quantile(b[1], 0.5) - quantile(a[1], 0.5))) {
  const us = (q: number) => (quantile(calls, q) * 1000).toFixed(0);
  console.log(`${us(0.5).padStart(7)} / ${us(0.25).padStart(5)}  ${k} (${calls.length})`);
}
if (heap !== undefined) {
  const { totalBytes, sites } = await heap.stop(process.env.HEAP!);
  const what = process.env.HEAP_SURVIVORS === '1' ? 'outlived a scavenge' : 'allocated';
  console.log(`${what} per transfer (sampled): ${(totalBytes / N / 1024).toFixed(0)} KiB; by site:`);
  for (const { site, bytes } of sites) console.log(`${(bytes / N / 1024).toFixed(1).padStart(8)} KiB  ${site}`);
}
const perBlock = [...opCounts].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ×${(v / (N + W + 1)).toFixed(1)}`);
console.log(`LevelDB records per block: ${perBlock.join(', ')}`);
console.log(`LevelDB writes per block: ${(levelWrites / (N + W + 1)).toFixed(2)}`);
console.log(
  `seal checks per block: runs ${(sealMsgs.runs / (N + W + 1)).toFixed(3)}, jobs ${(sealMsgs.jobs / (N + W + 1)).toFixed(2)}, read asks ${(sealMsgs.asks / (N + W + 1)).toFixed(2)} holding ${(sealMsgs.items / (N + W + 1)).toFixed(1)} items`,
);
const flat = (engine.chain as any).view.flat;
console.log(`flat-state head moves staged from listed changes: ${flat.listedMoves} of ${N + W + 1} blocks`);
await engine.close();
dir.remove();

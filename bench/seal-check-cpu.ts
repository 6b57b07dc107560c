/**
 * `npx tsx bench/seal-check-cpu.ts` (a diagnostic): what the seal checker costs per checked block, by thread, in
 * the engine (no HTTP). Each step is GAP empty blocks mined in bulk (qa_mineBlocks' path; 0 = none) and then one
 * ERC-20 transfer sent and mined in a block of its own, which the seal checker re-executes on its worker thread.
 * After WARMUP steps, N steps are timed; then the checker is drained (every verdict in) and the CPU of the worker
 * thread (found as the thread its start adds), of the main thread and of the process is divided by N, with the
 * worker's read asks (messages and items) per check, and the runs the checker posted (blocks per run). THREADS=1
 * also prints every thread's CPU per step.
 *   GAP=99 N=100 WARMUP=30 npx tsx bench/seal-check-cpu.ts
 */
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLegacyTx } from '@ethereumjs/tx';
import { Address, hexToBytes } from '@ethereumjs/util';
import { getCreateAddress, Interface } from 'ethers';
import { ChainEngine } from '../src/chain/engine/engine.js';
import { SealChecker } from '../src/chain/exec/seal-checker.js';
import { DEV_ACCOUNTS } from '../src/chain/networks/index.js';
import { tempDir } from '../test/chain/engine/fixtures.js';

const GAP = Number(process.env.GAP ?? 99);
const N = Number(process.env.N ?? 100);
const W = Number(process.env.WARMUP ?? 30);

const tasks = (): string[] => readdirSync('/proc/self/task');
function cpuMs(tid: string | number): number {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}
const processMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

// The worker's thread: the one that appears while the checker starts its worker.
const P = SealChecker.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
let workerTid: string | undefined;
const origStart = P.start!;
P.start = function (this: unknown, ...args: unknown[]) {
  const before = new Set(tasks());
  const worker = origStart.apply(this, args) as import('node:worker_threads').Worker;
  worker.once('online', () => {
    workerTid = tasks().find((t) => !before.has(t));
  });
  return worker;
};
const traffic = { asks: 0, items: 0 };
// SERIAL=1: the bytes each posted job clones to (a view clones its whole buffer), against the bytes it holds.
const cloned = { jobs: 0, bytes: 0, held: 0 };
if (process.env.SERIAL === '1') {
  const { serialize } = await import('node:v8');
  const held = (v: unknown): number =>
    v instanceof Uint8Array
      ? v.byteLength
      : Array.isArray(v)
        ? v.reduce((n: number, x) => n + held(x), 0)
        : v !== null && typeof v === 'object'
          ? Object.values(v).reduce((n: number, x) => n + held(x), 0)
          : 8;
  const origSend = P.send!;
  P.send = function (this: unknown, jobs: unknown) {
    for (const job of jobs as unknown[]) {
      cloned.jobs++;
      cloned.bytes += serialize(job).length;
      cloned.held += held(job);
    }
    return origSend.call(this, jobs);
  };
}
// The runs the checker posts (blocks held while they keep coming): their number and mean length in the timed steps.
const runs: number[] = [];
const origSendRun = P.send!;
P.send = function (this: unknown, jobs: unknown) {
  runs.push((jobs as unknown[]).length);
  return origSendRun.call(this, jobs);
};
const origReads = P.answerReads!;
P.answerReads = function (this: unknown, m: unknown) {
  traffic.asks++;
  traffic.items += (m as { items: unknown[] }).items.length;
  return origReads.call(this, m);
};

const key = hexToBytes(DEV_ACCOUNTS[1]!.privateKey as `0x${string}`);
const dir = tempDir('seal-check-cpu-');
const engine = await ChainEngine.open({
  dataDir: dir.dir,
  network: 'dev',
  seal: 'instant',
  powCacheDir: join(tmpdir(), 'svc-node-bench-ethash'),
  mining: { coinbase: new Uint8Array(20).fill(0xcb) },
  writeBehind: true,
});
engine.miner.start();
const artifact = JSON.parse(readFileSync(new URL('./contracts/BenchToken.json', import.meta.url), 'utf8'));
const iface = new Interface(artifact.abi);
const senderAddr = new Address(hexToBytes(DEV_ACCOUNTS[1]!.address as `0x${string}`));
const token = new Address(hexToBytes(getCreateAddress({ from: senderAddr.toString(), nonce: 0 }) as `0x${string}`));
const common = () => engine.chain.txCommonAt(engine.chain.getHead().header.number + 1n);
let nonce = 0n;
const signed = (fields: { to?: Address; data: Uint8Array; gasLimit: bigint }) =>
  createLegacyTx({ nonce: nonce++, value: 0n, gasPrice: 10n ** 9n, ...fields }, { common: common() })
    .sign(key)
    .serialize();
const transferData = hexToBytes(
  iface.encodeFunctionData('transfer', ['0x90F79bf6EB2c4f870365E785982E1f101E93b906', 1n]) as `0x${string}`,
);
async function sendMined(raw: Uint8Array): Promise<void> {
  const sealed = new Promise<void>((resolve) => {
    const f = (s: { transactions: readonly unknown[] }) => {
      if (s.transactions.length > 0) {
        engine.miner.off('sealed', f);
        resolve();
      }
    };
    engine.miner.on('sealed', f);
  });
  await engine.pool.add(raw);
  await sealed;
}
async function step(): Promise<void> {
  if (GAP > 0) await engine.miner.mineBlocks(GAP, { collect: false, withTransactions: false });
  await sendMined(signed({ to: token, data: transferData, gasLimit: 80_000n }));
}

const deployData = hexToBytes((artifact.bytecode + iface.encodeDeploy([10n ** 27n]).slice(2)) as `0x${string}`);
await sendMined(signed({ data: deployData, gasLimit: 1_500_000n }));
await engine.chain.sealChecks!.drain();
// The worker's start (its module graph loaded and compiled) and its first check, a contract creation.
console.log(`worker CPU through its first check: ${workerTid === undefined ? '?' : cpuMs(workerTid)} ms`);
for (let i = 0; i < W; i++) await step();
const checker = engine.chain.sealChecks!;
await checker.drain();
if (workerTid === undefined) throw new Error('the seal-check worker thread was not found');
const checked0 = checker.stats.checked;
const [w0, m0, p0] = [cpuMs(workerTid), cpuMs(process.pid), processMs()];
const threads0 = new Map(tasks().map((t) => [t, cpuMs(t)]));
traffic.asks = traffic.items = 0;
runs.length = 0;
const t0 = performance.now();
for (let i = 0; i < N; i++) await step();
await checker.drain();
const wall = performance.now() - t0;
const [w1, m1, p1] = [cpuMs(workerTid), cpuMs(process.pid), processMs()];
const checked = checker.stats.checked - checked0;
// THREADS=1: every thread's CPU per step (V8's platform threads compile and collect for both isolates).
if (process.env.THREADS === '1') {
  const byName = new Map<string, number>();
  for (const t of tasks()) {
    const name = readFileSync(`/proc/self/task/${t}/comm`, 'utf8').trim();
    const label = t === workerTid ? 'seal-check worker' : t === String(process.pid) ? 'main' : `${name}#${t}`;
    byName.set(label, (byName.get(label) ?? 0) + cpuMs(t) - (threads0.get(t) ?? 0));
  }
  console.log(
    [...byName]
      .filter(([, ms]) => ms > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([n, ms]) => `${n} ${(ms / N).toFixed(2)}`)
      .join(', '),
    'ms per step',
  );
}
const { failed, errors } = checker.stats;
console.log(
  `GAP=${GAP} N=${N} WARMUP=${W}: per step (${GAP} empty + 1 transfer, ${checked} checked, ${failed} failed, ${errors} errors) ` +
    `worker ${((w1 - w0) / N).toFixed(2)} ms, main ${((m1 - m0) / N).toFixed(2)} ms, process ${((p1 - p0) / N).toFixed(2)} ms CPU; ` +
    `asks ${(traffic.asks / N).toFixed(2)} (${(traffic.items / N).toFixed(1)} items); wall ${(wall / N).toFixed(1)} ms`,
);
console.log(`runs posted ${runs.length}, ${(runs.reduce((a, b) => a + b, 0) / runs.length).toFixed(2)} blocks each`);
if (cloned.jobs > 0)
  console.log(
    `jobs posted ${cloned.jobs}: cloned ${(cloned.bytes / cloned.jobs).toFixed(0)} B each, holding ${(cloned.held / cloned.jobs).toFixed(0)} B`,
  );
await engine.close();
dir.remove();

/**
 * `npx tsx bench/ethash.ts`: Ethash speed on this machine, single thread.
 * - keccak-512 on 64-byte inputs for each installed option (why src/chain/pow/keccak.ts uses hash-wasm);
 * - epoch-0 cache build, on this thread and in the worker (the worker figure includes its start-up);
 * - light verification hashes per second (one hashimotoLight per header, as block import does);
 * - light mining hashes per second (mineLight at an unreachable difficulty).
 * Targets (issue 3): cache ≤ 4 s, light verification ≥ 200 H/s. Knob: ETHASH_BENCH_SECONDS (default 3) per rate.
 * `runEthashBench()` returns the figures for a caller such as bench/index.ts.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createKeccak } from 'hash-wasm';
import { buildCache } from '../src/chain/pow/cache.js';
import { buildCacheInWorker } from '../src/chain/pow/cache-worker-spawn.js';
import { cacheSize, datasetSize, seedHash } from '../src/chain/pow/epoch.js';
import { hashimotoLight } from '../src/chain/pow/hashimoto.js';
import { loadKeccak } from '../src/chain/base/keccak.js';
import { mineLight } from '../src/chain/pow/seal.js';

export interface EthashBenchResult {
  readonly keccak512MicrosPerCall: Record<string, number>;
  readonly cacheBuildMs: { wall: number; cpu: number };
  readonly cacheBuildInWorkerMs: number;
  readonly lightHashesPerSecond: { wall: number; cpu: number };
  readonly miningHashesPerSecond: { wall: number; cpu: number };
}

const seconds = Number(process.env.ETHASH_BENCH_SECONDS ?? 3);

/** This thread's CPU time in ms (other threads are idle while a single-thread figure is measured). */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Calls `fn` repeatedly for about `ms` and returns calls per wall-clock second and per CPU second; the two
 * differ when other processes share the 2 cores, and the CPU figure is the one to compare across runs.
 */
function rate(fn: (i: number) => void, ms: number): { wall: number; cpu: number } {
  for (let i = 0; i < 3; i++) fn(i); // warm-up
  const started = performance.now();
  const cpuStarted = cpuMs();
  let calls = 0;
  while (performance.now() - started < ms) fn(calls++);
  return { wall: calls / ((performance.now() - started) / 1000), cpu: calls / ((cpuMs() - cpuStarted) / 1000) };
}

async function keccakOptions(): Promise<Record<string, number>> {
  const input = new Uint8Array(64).fill(0x5a);
  const micros = (perSecond: number) => 1e6 / perSecond;
  const out: Record<string, number> = {};
  const wasm = await createKeccak(512);
  out['hash-wasm (WASM)'] = micros(rate(() => wasm.init().update(input).digest('binary'), 1000).cpu);
  const require = createRequire(import.meta.url);
  const native = require('keccak') as (algorithm: string) => { update(data: Buffer): { digest(): Buffer } };
  const buffer = Buffer.from(input);
  out['keccak (native N-API)'] = micros(rate(() => native('keccak512').update(buffer).digest(), 1000).cpu);
  try {
    // A transitive dependency (ethers, viem, @ethereumjs), measured only if present.
    const noble = (await import('@noble/hashes/sha3.js' as string)) as { keccak_512(data: Uint8Array): Uint8Array };
    out['@noble/hashes (pure JS)'] = micros(rate(() => noble.keccak_512(input), 1000).cpu);
  } catch {
    // not installed
  }
  return out;
}

export async function runEthashBench(): Promise<EthashBenchResult> {
  await loadKeccak();
  const keccak512MicrosPerCall = await keccakOptions();

  let started = performance.now();
  const cpuStarted = cpuMs();
  const cache = buildCache(cacheSize(0), seedHash(0));
  const cacheBuildMs = { wall: performance.now() - started, cpu: cpuMs() - cpuStarted };

  started = performance.now();
  await buildCacheInWorker(0, 30_000);
  const cacheBuildInWorkerMs = performance.now() - started;

  const fullSize = datasetSize(0);
  const powHash = new Uint8Array(32).fill(0x11);
  const lightHashesPerSecond = rate((i) => hashimotoLight(cache, fullSize, powHash, BigInt(i)), seconds * 1000);

  const batch = 50;
  const batches = rate(
    (i) => mineLight(cache, fullSize, powHash, 1n << 255n, BigInt(i * batch), batch),
    seconds * 1000,
  );
  const miningHashesPerSecond = { wall: batches.wall * batch, cpu: batches.cpu * batch };

  return { keccak512MicrosPerCall, cacheBuildMs, cacheBuildInWorkerMs, lightHashesPerSecond, miningHashesPerSecond };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await runEthashBench();
  const pair = (x: { wall: number; cpu: number }, digits: number) =>
    `${x.wall.toFixed(digits)} wall / ${x.cpu.toFixed(digits)} cpu`;
  console.log('keccak-512, 64-byte input (CPU µs per call):');
  for (const [name, us] of Object.entries(r.keccak512MicrosPerCall))
    console.log(`  ${name.padEnd(26)} ${us.toFixed(2)}`);
  console.log(
    `epoch-0 cache build, this thread:   ${pair({ wall: r.cacheBuildMs.wall / 1000, cpu: r.cacheBuildMs.cpu / 1000 }, 2)} s  (target ≤ 4 s)`,
  );
  console.log(
    `epoch-0 cache build, worker thread: ${(r.cacheBuildInWorkerMs / 1000).toFixed(2)} s  (includes worker start-up)`,
  );
  console.log(`light verification: ${pair(r.lightHashesPerSecond, 0)} hashes/s, one thread  (target ≥ 200)`);
  console.log(`light mining:       ${pair(r.miningHashesPerSecond, 0)} hashes/s, one thread`);
}

/**
 * `npx tsx bench/seal-burst.ts` (a diagnostic, not part of `npm run bench`): the peer report's "then sealing all
 * 1000" row without HTTP. An in-process dev engine (instant seal, write-behind, as `npm start` runs dev) gets N
 * ERC-20 transfers (signed before the clock, round-robin over 4 senders) with its miner stopped, then the miner
 * is started and the clock runs until the pool is empty: blocks used, wall and main-thread CPU time.
 *
 * Knobs: N (1000), ROUNDS (3 timed, after WARMUP bursts, default 2, and WARMSEQ one-tx blocks, default 300),
 * CPUPROF=<file>: a CPU profile of the last timed sealing only (bench/profile-summary.ts); HEAP=<file>: the bytes
 * it allocates per transfer, by site (heap-sampling.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLegacyTx } from '@ethereumjs/tx';
import { Address, hexToBytes } from '@ethereumjs/util';
import { Interface, getCreateAddress } from 'ethers';
import { ChainEngine } from '../src/chain/engine/engine.js';
import { DEV_ACCOUNTS } from '../src/chain/networks/index.js';
import { tempDir } from '../test/chain/engine/fixtures.js';
import { startHeapSampling } from './heap-sampling.js';

const N = Number(process.env.N ?? 1000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const WARMUP = Number(process.env.WARMUP ?? 2);
const WARMSEQ = Number(process.env.WARMSEQ ?? 300);
const SENDERS = 4;
/** Garbage collections seen (count, ms), for the timed window's figures. */
const gc = { count: 0, ms: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gc.count++;
    gc.ms += e.duration;
  }
}).observe({ entryTypes: ['gc'] });

function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const dir = tempDir('seal-burst-');
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
const keys = DEV_ACCOUNTS.slice(1, 1 + SENDERS).map((a) => hexToBytes(a.privateKey as `0x${string}`));
const addrs = DEV_ACCOUNTS.slice(1, 1 + SENDERS).map((a) => a.address);
const nonces = keys.map(() => 0n);
const token = new Address(hexToBytes(getCreateAddress({ from: addrs[0]!, nonce: 0 }) as `0x${string}`));
const common = () => engine.chain.txCommonAt(engine.chain.getHead().header.number + 1n);
const sign = (s: number, fields: { to?: Address; data: Uint8Array; gasLimit: bigint }) =>
  createLegacyTx({ nonce: nonces[s]!++, value: 0n, gasPrice: 10n ** 9n, ...fields }, { common: common() })
    .sign(keys[s]!)
    .serialize();
const transferTo = (to: string, amount: bigint) =>
  hexToBytes(iface.encodeFunctionData('transfer', [to, amount]) as `0x${string}`);
const recipient = transferTo('0x90F79bf6EB2c4f870365E785982E1f101E93b906', 1n);

async function drained(): Promise<void> {
  while (engine.pool.size > 0) await new Promise((r) => setTimeout(r, 1));
}
async function sendMined(raw: Uint8Array): Promise<void> {
  await engine.pool.add(raw);
  await drained();
}

await sendMined(
  sign(0, {
    data: hexToBytes((artifact.bytecode + iface.encodeDeploy([10n ** 27n]).slice(2)) as `0x${string}`),
    gasLimit: 1_500_000n,
  }),
);
for (let s = 1; s < SENDERS; s++)
  await sendMined(sign(0, { to: token, data: transferTo(addrs[s]!, 10n ** 24n), gasLimit: 80_000n }));
await sendMined(sign(0, { to: token, data: recipient, gasLimit: 80_000n }));
for (let i = 0; i < WARMSEQ; i++) await sendMined(sign(i % SENDERS, { to: token, data: recipient, gasLimit: 45_000n }));

async function burst(
  profile: Session | undefined,
): Promise<{ ms: number; cpu: number; blocks: number; gcCount: number; gcMs: number }> {
  const raws = Array.from({ length: N }, (_, i) =>
    sign(i % SENDERS, { to: token, data: recipient, gasLimit: 45_000n }),
  );
  await engine.miner.stop();
  for (const raw of raws) await engine.pool.add(raw);
  const before = engine.chain.getHead().header.number;
  if (profile !== undefined && process.env.CPUPROF) await profile.post('Profiler.start');
  const heap = profile !== undefined && process.env.HEAP ? await startHeapSampling(4096) : undefined;
  const cpu0 = mainThreadCpuMs();
  const gc0 = { ...gc };
  const t0 = performance.now();
  engine.miner.start();
  await drained();
  const ms = performance.now() - t0;
  const cpu = mainThreadCpuMs() - cpu0;
  await new Promise((r) => setTimeout(r, 5)); // the observer's entries arrive on a later turn
  const gcCount = gc.count - gc0.count;
  const gcMs = gc.ms - gc0.ms;
  if (heap !== undefined) {
    const { totalBytes, sites } = await heap.stop(process.env.HEAP!);
    console.log(`allocated per transfer (sampled): ${(totalBytes / N / 1024).toFixed(0)} KiB; by site:`);
    for (const { site, bytes } of sites.slice(0, 30))
      console.log(`${(bytes / N / 1024).toFixed(1).padStart(8)} KiB  ${site}`);
  }
  if (profile !== undefined && process.env.CPUPROF) {
    const { profile: p } = await profile.post('Profiler.stop');
    writeFileSync(process.env.CPUPROF!, JSON.stringify(p));
  }
  return { ms, cpu, blocks: Number(engine.chain.getHead().header.number - before), gcCount, gcMs };
}

for (let i = 0; i < WARMUP; i++) await burst(undefined);
const session = process.env.CPUPROF || process.env.HEAP ? new Session() : undefined;
if (session !== undefined) {
  session.connect();
  await session.post('Profiler.enable');
}
for (let r = 0; r < ROUNDS; r++) {
  const { ms, cpu, blocks, gcCount, gcMs } = await burst(r === ROUNDS - 1 ? session : undefined);
  console.log(
    `round ${r}: sealing ${N} took ${ms.toFixed(1)} ms (main thread CPU ${cpu} ms, ${gcCount} GCs ` +
      `${gcMs.toFixed(1)} ms) in ${blocks} block(s)`,
  );
}
session?.disconnect();
await engine.close();
dir.remove();

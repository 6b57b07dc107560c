/**
 * `npx tsx bench/mgas.ts [--rows heavy,mixed] [--runs 1] [--profile <dir>]`: block import in Mgas/s on real-sized
 * blocks, by a second engine through the ordinary import path (`importBlock`: validate, execute with
 * @ethereumjs/vm's `runTx` on the node's state, stage receipts, indexes and state nodes in one batch, move the head
 * and the flat state). Two rows (chains from bench/mgas-chains.ts, built once and cached in the tmp dir):
 *
 * - **heavy**: the state-heavy account blocks of bench/results/state-heavy-blocks.md (one transaction each in which
 *   a contract sends 1 wei to 790 fresh addresses, 27.6 M gas) on a state of ~118 k accounts: blocks 151–162 by
 *   default. `--heavy-source <datadir>` imports from an existing serving chain (bench/snap-chain.ts); without one
 *   a chain of `--heavy-accounts` (130,000) accounts is built, which holds the same blocks.
 * - **mixed**: blocks filled to ETC's 8 M-gas limit with ERC-20 transfers (BenchToken; a third to new holders) and
 *   calls of a ledger contract (SSTOREs, SLOADs, a STATICCALL of the token, a log), signed by 240 senders:
 *   `--mixed-count` (20) timed blocks after `--mixed-warm` (10) untimed ones.
 *
 * Each run copies the row's base datadir (blocks before the timed ones, imported once with a node's defaults) and
 * imports the timed blocks, decoded from their bytes before the clock, so each transaction's sender is recovered
 * on the clock, as for a block from a peer. Seals are out of the figure: their Ethash seals are checked before the
 * clock (`preverifySeals`, on the seal workers; the import takes those verdicts). Printed
 * per run: Mgas/s of wall time and of the process's CPU time (all threads: execution, LevelDB, GC), and ms per block.
 * `--profile <dir>` records a V8 CPU profile of the main thread over the timed import (`<row>.cpuprofile`; summary:
 * bench/profile-summary.ts); `--phases` prints the wall time per block of the import's phases (bench/mgas-phases.ts).
 * Results: bench/results/mgas.md.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { CacheLimits } from '../src/chain/base/cache-limits.js';
import { ChainEngine } from '../src/chain/engine/engine.js';
import { type BenchChain, heavyChain, mixedChain, POW_CACHE_DIR } from './mgas-chains.js';
import { installPhaseTimers, takePhases } from './mgas-phases.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: 'heavy,mixed' },
    runs: { type: 'string', default: '1' },
    profile: { type: 'string' },
    phases: { type: 'boolean', default: false },
    caches: { type: 'string' },
    'heavy-source': { type: 'string' },
    'heavy-accounts': { type: 'string', default: '130000' },
    'heavy-from': { type: 'string', default: '151' },
    'heavy-count': { type: 'string', default: '12' },
    'mixed-warm': { type: 'string', default: '10' },
    'mixed-count': { type: 'string', default: '20' },
  },
});

/** `--caches '<json>'`: cache bounds of the importing engine (src/chain/base/cache-limits.ts); default a node's. */
const caches = values.caches === undefined ? undefined : (JSON.parse(values.caches) as Partial<CacheLimits>);

async function openEngine(chain: BenchChain, dataDir: string, timed = false): Promise<ChainEngine> {
  return ChainEngine.open({
    dataDir,
    powCacheDir: POW_CACHE_DIR,
    ...chain.open,
    ...(timed && caches !== undefined ? { caches } : {}),
  });
}

/** The flat table's mode (the engine keeps it private: a bench may look). */
const flatMode = (engine: ChainEngine): string | undefined =>
  (engine.chain as unknown as { view?: { flat?: { mode: string } } }).view?.flat?.mode;

async function flatBuilt(engine: ChainEngine): Promise<void> {
  while (flatMode(engine) === 'clearing' || flatMode(engine) === 'building')
    await new Promise((r) => setTimeout(r, 250));
}

/** The datadir holding blocks 1 … first−1, made once per chain. */
async function baseOf(chain: BenchChain): Promise<string> {
  const base = join(chain.dir, 'base');
  if (existsSync(join(chain.dir, 'base-done'))) return base;
  rmSync(base, { recursive: true, force: true });
  const started = performance.now();
  const engine = await openEngine(chain, base);
  try {
    for (const raw of chain.blocks.slice(0, chain.first - 1))
      await engine.chain.importBlock(engine.chain.decodeBlock(raw));
    await flatBuilt(engine);
  } finally {
    await engine.close();
  }
  writeFileSync(join(chain.dir, 'base-done'), new Date().toISOString());
  console.error(
    `${chain.name}: base datadir (blocks 1…${chain.first - 1}) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return base;
}

async function run(chain: BenchChain, base: string, profileDir: string | undefined): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), `svc-node-bench-mgas-${chain.name}-`));
  cpSync(base, dataDir, { recursive: true });
  const engine = await openEngine(chain, dataDir, true);
  try {
    await flatBuilt(engine);
    const blocks = chain.blocks.slice(chain.first - 1).map((raw) => engine.chain.decodeBlock(raw));
    const gas = blocks.reduce((sum, b) => sum + b.header.gasUsed, 0n);
    const txs = blocks.reduce((sum, b) => sum + b.transactions.length, 0);
    await engine.chain.preverifySeals(blocks);
    const session = profileDir === undefined ? undefined : new Session();
    if (session !== undefined) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 500 });
      await session.post('Profiler.start');
    }
    if (values.phases) takePhases(1);
    const started = performance.now();
    const cpu = process.cpuUsage();
    for (const block of blocks) {
      const result = await engine.chain.importBlock(block);
      if (result.status !== 'head') throw new Error(`block ${block.header.number}: ${result.status}`);
    }
    const s = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    if (session !== undefined) {
      const { profile } = await session.post('Profiler.stop');
      mkdirSync(profileDir!, { recursive: true });
      writeFileSync(join(profileDir!, `${chain.name}.cpuprofile`), JSON.stringify(profile));
      session.disconnect();
    }
    if (values.phases) console.error(`${chain.name}: ${takePhases(blocks.length)}`);
    const cpuS = (used.user + used.system) / 1e6;
    const mgas = Number(gas) / 1e6;
    const last = blocks.at(-1)!.header.number;
    return (
      `| ${chain.name} | ${blocks[0]!.header.number}–${last} | ${(mgas / blocks.length).toFixed(2)} | ` +
      `${(txs / blocks.length).toFixed(0)} | ${(mgas / s).toFixed(1)} | ${(mgas / cpuS).toFixed(1)} | ` +
      `${((s * 1000) / blocks.length).toFixed(0)} | ${((cpuS * 1000) / blocks.length).toFixed(0)} | ${loadavg()[0]!.toFixed(1)} |`
    );
  } finally {
    await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (values.phases) installPhaseTimers();
const rows = values.rows.split(',');
const chains: BenchChain[] = [];
for (const row of rows) {
  if (row === 'heavy')
    chains.push(
      await heavyChain({
        ...(values['heavy-source'] !== undefined ? { source: values['heavy-source'] } : {}),
        accounts: Number(values['heavy-accounts']),
        first: Number(values['heavy-from']),
        count: Number(values['heavy-count']),
      }),
    );
  else if (row === 'mixed')
    chains.push(await mixedChain({ warm: Number(values['mixed-warm']), count: Number(values['mixed-count']) }));
  else throw new Error(`unknown row ${row} (heavy, mixed)`);
}
const bases = new Map<BenchChain, string>();
for (const chain of chains) bases.set(chain, await baseOf(chain));
console.log(
  '| row | blocks | Mgas per block | txs per block | Mgas/s (wall) | Mgas/CPU-s | ms per block (wall) | CPU ms per block | load |',
);
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
// Rows take turns run by run, so a change in the machine's load falls on both.
for (let i = 0; i < Number(values.runs); i++)
  for (const chain of chains) console.log(await run(chain, bases.get(chain)!, values.profile));

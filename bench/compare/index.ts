/**
 * `npm run bench -- --peers [--quick] [--targets=svc-node,anvil,ganache,hardhat,ethereumjs]
 * [--only=starts,reads,writes,logs]`: svc-node side by side with the dev nodes people use instead, same machine,
 * same run. Writes bench/results/latest-peers.{md,svg,json}. `--only` runs just those sections (e.g. `--only=writes`
 * while working on the write path; the report then holds only their rows).
 *
 * Order: extra cold starts (nothing else running) → svc-node, Anvil, Ganache and Hardhat started together and measured
 * in alternation (reads, batch, writes, logs) → the EthereumJS client alone afterwards, because its --dev=pow
 * miner keeps hashing and would load the machine while the others are measured.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { renderSvg } from './chart.js';
import { prepareFixture, type Fixture } from './fixture.js';
import { makeWorkDir, startTarget, type RunningTarget } from './launcher.js';
import { LoadGenerator } from './load-client.js';
import { runLogs } from './logs.js';
import { treeRssBytes } from './process-tree.js';
import { knownReasons } from './reasons.js';
import { renderMarkdown, type RunInfo } from './report.js';
import { rerender, subtitleOf } from './rerender.js';
import { runReads, type ReadOptions } from './reads.js';
import { Results, unavailableBecause } from './results.js';
import { COLD_START_LABEL, COLD_START_SECTION, ColdStarts } from './startup.js';
import { allTargets, peersDir, repoDir, type Target } from './targets.js';
import { runWrites } from './writes.js';

interface Plan {
  readonly mode: 'full' | 'quick';
  readonly reads: Omit<ReadOptions, 'log'>;
  readonly sequentialTransfers: number;
  readonly burstTransfers: number;
  readonly writeRuns: number;
  readonly logRanges: readonly number[];
  readonly logQueryRuns: number;
  readonly buildBudgetSeconds: number;
  readonly extraColdStarts: number;
}

const plans: Record<'full' | 'quick', Plan> = {
  full: {
    mode: 'full',
    reads: { concurrencies: [1, 16, 64], batchConcurrencies: [1, 16], runs: 3, seconds: 2, warmupSeconds: 1 },
    sequentialTransfers: 200,
    burstTransfers: 1000,
    writeRuns: 3,
    logRanges: [1000, 10_000],
    logQueryRuns: 5,
    buildBudgetSeconds: 300,
    extraColdStarts: 2,
  },
  quick: {
    mode: 'quick',
    reads: { concurrencies: [1, 16], batchConcurrencies: [16], runs: 1, seconds: 1, warmupSeconds: 0.5 },
    sequentialTransfers: 30,
    burstTransfers: 200,
    writeRuns: 1,
    logRanges: [1000],
    logQueryRuns: 3,
    buildBudgetSeconds: 60,
    extraColdStarts: 0,
  },
};

const started = performance.now();
const log = (line: string) =>
  process.stdout.write(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);

function ensurePeersInstalled(): void {
  if (
    existsSync(`${peersDir}node_modules/ganache/package.json`) &&
    existsSync(`${peersDir}node_modules/hardhat/package.json`)
  )
    return;
  log('installing the peers into bench/peers (a separate tree, not part of the package)');
  const npm = spawnSync('npm', ['install', '--prefix', peersDir, '--no-audit', '--no-fund'], { stdio: 'inherit' });
  if (npm.status !== 0) throw new Error(`npm install --prefix bench/peers failed with ${npm.status}`);
}

interface Prepared {
  readonly node: RunningTarget;
  readonly fixture: Fixture | undefined;
  readonly fixtureProblem?: string;
}

async function prepare(node: RunningTarget): Promise<Prepared> {
  try {
    return { node, fixture: await prepareFixture(node) };
  } catch (err) {
    const problem = unavailableBecause(err).unavailable;
    log(`  ${node.target.id}: no ERC-20 fixture: ${problem}`);
    return { node, fixture: undefined, fixtureProblem: problem };
  }
}

export async function runPeerComparison(argv: readonly string[]): Promise<void> {
  if (argv.includes('--render')) return rerender();
  const plan = plans[argv.includes('--quick') ? 'quick' : 'full'];
  const only = argv
    .find((a) => a.startsWith('--targets='))
    ?.slice('--targets='.length)
    .split(',');
  const chosen = allTargets.filter((t) => !only || only.includes(t.id));
  const sections = argv
    .find((a) => a.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',');
  const runs = (section: 'starts' | 'reads' | 'writes' | 'logs') => !sections || sections.includes(section);
  ensurePeersInstalled();
  const startedAt = new Date();
  const loadAtStart = loadavg();
  const results = new Results();
  const coldStarts = new ColdStarts();
  const skipped: Array<{ target: Target; reason: string }> = [];
  const workDir = makeWorkDir();
  const load = new LoadGenerator();
  const measured: Target[] = [];
  const readOptions: ReadOptions = { ...plan.reads, log };
  const running: RunningTarget[] = [];

  try {
    const together = chosen.filter((t) => t.id !== 'ethereumjs');
    if (plan.extraColdStarts > 0 && runs('starts')) {
      log(`cold starts (${plan.extraColdStarts} extra per node)`);
      await coldStarts.measure(together, plan.extraColdStarts, workDir, log);
    }
    const prepared: Prepared[] = [];
    for (const target of together) {
      log(`starting ${target.name}`);
      try {
        const node = await startTarget(target, workDir);
        running.push(node);
        coldStarts.record(node);
        prepared.push(await prepare(node));
        measured.push(target);
      } catch (err) {
        skipped.push({ target, reason: unavailableBecause(err).unavailable });
        log(`  ${target.name} not measured: ${unavailableBecause(err).unavailable}`);
      }
    }
    if (runs('reads')) await runReads(results, prepared, load, readOptions);
    if (runs('writes'))
      await runWrites(results, prepared, {
        sequentialTransfers: plan.sequentialTransfers,
        burstTransfers: plan.burstTransfers,
        runs: plan.writeRuns,
        log,
      });
    if (runs('logs'))
      await runLogs(results, prepared, {
        ranges: plan.logRanges,
        queryRuns: plan.logQueryRuns,
        buildBudgetSeconds: plan.buildBudgetSeconds,
        log,
      });
    for (const node of running.splice(0)) await node.stop();

    const ejs = chosen.find((t) => t.id === 'ethereumjs' && runs('reads'));
    if (ejs) await measureAlone(ejs, results, coldStarts, load, readOptions, workDir, measured, skipped, running);
  } finally {
    load.close();
    for (const node of running) await node.stop();
    rmSync(workDir, { recursive: true, force: true });
  }

  if (runs('starts'))
    coldStarts.report(
      results,
      measured.map((t) => t.id),
    );
  moveRowLast(results, COLD_START_SECTION, COLD_START_LABEL);
  const info: RunInfo = {
    startedAt,
    finishedAt: new Date(),
    mode: plan.mode,
    settings: `reads ${plan.reads.runs} run(s) × ${plan.reads.seconds} s per concurrency after a ${plan.reads.warmupSeconds} s warm-up; writes ${plan.writeRuns} run(s); eth_getLogs ${plan.logQueryRuns} queries after one warm-up; ${plan.extraColdStarts + 1} cold start(s) per node`,
    loadAtStart,
    loadAtEnd: loadavg(),
    autocannonVersion: (
      JSON.parse(readFileSync(createRequire(repoDir).resolve('autocannon/package.json'), 'utf8')) as { version: string }
    ).version,
    targets: allTargets.filter((t) => measured.includes(t)),
    skipped,
  };
  const outDir = `${repoDir}bench/results/`;
  mkdirSync(outDir, { recursive: true });
  const markdown = renderMarkdown(results, info, knownReasons);
  writeFileSync(`${outDir}latest-peers.md`, markdown);
  writeFileSync(`${outDir}latest-peers.svg`, renderSvg(results, info.targets, subtitleOf(info)));
  writeFileSync(
    `${outDir}latest-peers.json`,
    JSON.stringify(
      {
        info: {
          ...info,
          targets: info.targets.map((t) => ({ id: t.id, name: t.name, version: t.version })),
          skipped: skipped.map((s) => ({ id: s.target.id, reason: s.reason })),
        },
        rows: results.rows,
        notes: results.notes,
      },
      null,
      2,
    ) + '\n',
  );
  log(`wrote bench/results/latest-peers.{md,svg,json} in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
}

/** The EthereumJS client: reads, batch, cold start and memory; it has no way to mine on demand. */
async function measureAlone(
  target: Target,
  results: Results,
  coldStarts: ColdStarts,
  load: LoadGenerator,
  readOptions: ReadOptions,
  workDir: string,
  measured: Target[],
  skipped: Array<{ target: Target; reason: string }>,
  running: RunningTarget[],
): Promise<void> {
  log(`starting ${target.name} (measured alone: its PoW miner runs all the time)`);
  let node: RunningTarget;
  try {
    node = await startTarget(target, workDir);
  } catch (err) {
    skipped.push({ target, reason: unavailableBecause(err).unavailable });
    log(`  ${target.name} not measured: ${unavailableBecause(err).unavailable}`);
    return;
  }
  running.push(node);
  measured.push(target);
  coldStarts.record(node);
  const prepared = await prepare(node);
  // Its miner hashes on the main thread, so answers take up to ~1 s: one longer run per cell instead of the
  // full matrix (which would mostly wait on autocannon's 10 s timeouts).
  const reads: ReadOptions = {
    ...readOptions,
    concurrencies: [1, 16],
    batchConcurrencies: [1],
    runs: 1,
    seconds: 3,
    warmupSeconds: 1,
  };
  await runReads(results, [prepared], load, reads);
  results.note(
    target.id,
    'reads: one 3 s run per cell at concurrency 1 and 16 only; its --dev=pow miner runs Ethash on the event-loop thread, and single eth_chainId calls took 6–870 ms with curl (8 answers in a 3 s autocannon run).',
  );
  const why = 'no mining RPC; --dev=pow seals a block about every 10 s, so automine and on-demand blocks do not exist';
  for (const row of results.rows.filter((r) => r.section === 'Writes' || r.section === 'Logs and chain length')) {
    results.set(row.section, row.workload, row.unit, row.higherIsBetter, target.id, { unavailable: why });
  }
  const head = Number(await node.rpc.call<string>('eth_blockNumber'));
  const rssRow = results.rows.find((r) => r.workload.startsWith('resident memory'));
  if (rssRow)
    rssRow.cells[target.id] = {
      value: treeRssBytes(node.pid) / 2 ** 20,
      runs: [],
      load: [],
      note: `at its own height, block ${head}`,
    };
  results.note(
    target.id,
    `funded account: the key --dev=pow generates and prints at start (it takes no mnemonic); chain id 123456; measured after the other nodes were stopped.`,
  );
  running.splice(running.indexOf(node), 1);
  await node.stop();
}

function moveRowLast(results: Results, section: string, workload: string): void {
  const i = results.rows.findIndex((r) => r.section === section && r.workload === workload);
  if (i >= 0) results.rows.push(...results.rows.splice(i, 1));
}

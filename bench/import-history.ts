/**
 * `npx tsx bench/import-history.ts` (also run by `npm run bench`): real ETC history, era1 epoch 0 (blocks 0–8191,
 * 1,410 uncles, every seal checked). Writes bench/results/import-history.md with:
 * - the cost of one Ethash light verification on this thread (the seal of one header or uncle);
 * - the row "import real blocks (era1 epoch 0)": `svc-node --network etc import <era1>` as a process into a fresh
 *   datadir, its wall time and blocks/s (process start and genesis included), the import's own rate, the head it
 *   reached against the file's last block, and each thread's CPU (/proc);
 * - the time around the import (the command's debug "command phase" lines: start-up and bundle load, the chain's
 *   open with its genesis, the file checks, the close, the exit) and the process's CPU from start to close;
 * - where the importing thread's time went (the import's `mainThreadMs`), the wait for seal verdicts apart, and the
 *   rate the import would have had with seal verdicts always ready (the seals' cost isolated: re-measure after a
 *   faster seal check lands).
 * Goal (issues 25, 41): ≥ 1,000 blocks/s on a 2-core machine with every seal checked.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex } from '@ethereumjs/util';
import { Era1File } from '../src/chain/archive/era1.js';
import { keccak256 } from '../src/chain/base/crypto.js';
import { datasetSize } from '../src/chain/pow/epoch.js';
import { Ethash, sealHash } from '../src/chain/pow/ethash.js';
import { checkSeals } from '../src/chain/pow/seal.js';
import { createBlockHeaderFromBytesArray } from '@ethereumjs/block';
import { getNetwork } from '../src/chain/networks/index.js';
import { evmRulesAt } from '../src/chain/rules/evmRules.js';

const repo = fileURLToPath(new URL('../', import.meta.url));
const ERA1 = process.env.IMPORT_BENCH_ERA1 ?? '/work/shared/vectors/realchain/mainnet-00000-5ec1ffb8.era1';
const cacheDir = join(tmpdir(), 'svc-node-test-ethash');

async function sealCostMs(): Promise<number> {
  const pow = await Ethash.create({ params: {}, cacheDir, sealWorkers: 0 });
  const cache = await pow.cacheFor(1);
  const era = await Era1File.open(ERA1);
  const common = evmRulesAt(getNetwork('etc'), 1n);
  const headers: ReturnType<typeof createBlockHeaderFromBytesArray>[] = [];
  for await (const b of era.blocks(1n)) {
    headers.push(createBlockHeaderFromBytesArray(RLP.decode(b.header) as Uint8Array[], { common }));
    if (headers.length >= 300) break;
  }
  await era.close();
  const size = datasetSize(0);
  const seals = headers.map((h) => ({
    powHash: sealHash(h),
    nonce: h.nonce,
    mixDigest: h.mixHash,
    difficulty: h.difficulty,
  }));
  // As import checks them: in batches (the WebAssembly path hashes 8 at a time); the first pass touches the cache.
  checkSeals(cache, size, seals.slice(0, 16));
  const started = process.cpuUsage();
  checkSeals(cache, size, seals).forEach((ok, i) => {
    if (!ok.valid) throw new Error(`seal of block ${headers[i]!.number} invalid`);
  });
  const used = process.cpuUsage(started);
  await pow.close();
  return (used.user + used.system) / 1000 / headers.length;
}

interface ThreadCpu {
  /** ms of CPU (user + system) of the main thread, and of every other thread together. */
  readonly mainMs: number;
  readonly othersMs: number;
  /** ms the main thread was runnable but waiting for a CPU (other work on the machine, or this process's threads). */
  readonly mainWaitMs: number;
}

const ticks = 100; // USER_HZ on Linux
function threadCpu(pid: number): ThreadCpu | undefined {
  try {
    let mainMs = 0;
    let othersMs = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const f = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
      const ms = ((Number(rest[11]) + Number(rest[12])) * 1000) / ticks;
      if (Number(tid) === pid) mainMs = ms;
      else othersMs += ms;
    }
    const wait = Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
    return { mainMs, othersMs, mainWaitMs: wait };
  } catch {
    return undefined;
  }
}

interface CliRun {
  readonly wall: number;
  readonly imported: number;
  readonly seconds: number;
  readonly head: string;
  readonly hash: string;
  readonly times: Record<string, number>;
  readonly cpu: ThreadCpu | undefined;
  /** The command's phases: ms since the process started at the end of each (its debug "command phase" lines). */
  readonly phases: Record<string, number>;
  /** CPU (user + system, every thread, ms) from the process's start to its close. */
  readonly processCpuMs: number | undefined;
}

function processCpuMs(pid: number): number | undefined {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return ((Number(rest[11]) + Number(rest[12])) * 1000) / ticks;
  } catch {
    return undefined;
  }
}

async function throughSvcNode(): Promise<CliRun> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-node-import-bench-'));
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      ...['bin/svc-node.js', '--network', 'etc', '--datadir', dir, '--ethash.cachedir', cacheDir],
      ...['--log-level', 'debug', 'import', ERA1],
    ],
    { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  let cpu: ThreadCpu | undefined;
  let closedCpu: number | undefined;
  // Read when the import is done, before closing ends the worker threads (their CPU leaves /proc with them).
  child.stdout!.setEncoding('utf8').on('data', (c: string) => {
    out += c;
    if (c.includes('"import done"')) cpu ??= threadCpu(child.pid!);
    if (c.includes('"phase":"closed"')) closedCpu ??= processCpuMs(child.pid!);
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const wall = (performance.now() - started) / 1000;
  rmSync(dir, { recursive: true, force: true });
  const lines = out.split('\n').map((l) => {
    try {
      return JSON.parse(l) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  });
  const done = lines.find((l) => l?.msg === 'import done');
  const phases = Object.fromEntries(
    lines.filter((l) => l?.msg === 'command phase').map((l) => [String(l!.phase), Number(l!.processMs)]),
  );
  if (code !== 0 || done === undefined) throw new Error(`svc-node import exited with ${code}`);
  return {
    wall,
    imported: Number(done.imported),
    seconds: Number(done.seconds),
    head: String(done.head),
    hash: String(done.hash),
    times: done.mainThreadMs as Record<string, number>,
    cpu,
    phases,
    processCpuMs: closedCpu,
  };
}

/** The era1's last block number and hash, read by the bench itself (the head the import must reach). */
async function lastBlock(): Promise<{ number: string; hash: string }> {
  const era = await Era1File.open(ERA1);
  let last: { number: string; hash: string } = { number: '', hash: '' };
  for await (const b of era.blocks(era.lastNumber, { bodies: false }))
    last = { number: b.number.toString(), hash: bytesToHex(keccak256(b.header)) };
  await era.close();
  return last;
}

const seal = await sealCostMs();
process.stdout.write(`one seal (light verification, batched): ${seal.toFixed(2)} ms CPU\n`);
const expected = await lastBlock();
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(', ');
// Compiles and bundles the sources first if they changed, so the timed run starts from the bundle.
spawnSync(process.execPath, ['bin/svc-node.js', '--version'], { cwd: repo, stdio: 'ignore' });
const loadBefore = load();
const cli = await throughSvcNode();
const blocksPerSecond = cli.imported / cli.wall;
const importRate = cli.imported / cli.seconds;
const t = cli.times;
const importMs = cli.seconds * 1000;
const row = (what: string, ms: number) =>
  `| ${what} | ${(ms / 1000).toFixed(2)} | ${((ms / importMs) * 100).toFixed(0)} % | ${((ms * 1000) / cli.imported).toFixed(0)} |`;
// The import's rate had seal verdicts always been ready when a block's turn came (the main thread's own work only).
const sealFree = cli.imported / ((importMs - t.sealWait) / 1000);
const headRight = cli.head === expected.number && cli.hash === expected.hash;
const cpu = cli.cpu;
const sealCpu = (seal * 9601) / 1000;
const ph = cli.phases;
const span = (from: number | undefined, to: number | undefined) =>
  from === undefined || to === undefined ? 'not logged' : `${((to - from) / 1000).toFixed(2)} s`;
const report = [
  '# Benchmark: import real blocks (era1 epoch 0)',
  '',
  `Date: ${new Date().toISOString()}; Node ${process.version}; ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'};`,
  `load average before: ${loadBefore}; when done: ${load()} (other work on the machine slows every row alike).`,
  '',
  'Command: `npx tsx bench/import-history.ts` (runs `node bin/svc-node.js --network etc --datadir <fresh> import',
  `${ERA1.replace(/^.*\//, '<realchain>/')}\`; every seal checked: 8,191 headers and 1,410 uncles).`,
  '',
  `One seal (Ethash light verification, epoch 0, checked in a batch as import does, this thread): **${seal.toFixed(2)} ms CPU**; epoch 0 has 8,191`,
  `blocks + 1,410 uncles = 9,601 seals, so the seals alone cost ${sealCpu.toFixed(1)} s of CPU: on 2 cores at best`,
  `${(8191 / (sealCpu / 2)).toFixed(0)} blocks/s from the seals alone.`,
  '',
  '| row | value |',
  '|---|---:|',
  `| **import real blocks (era1 epoch 0)**: process wall time (start, genesis and close included) | **${cli.wall.toFixed(1)} s, ${blocksPerSecond.toFixed(0)} blocks/s** |`,
  `| the import itself (its "import done" line) | ${cli.seconds.toFixed(1)} s, ${importRate.toFixed(0)} blocks/s, ${((importMs * 1000) / cli.imported).toFixed(0)} µs a block |`,
  `| the import had seal verdicts been ready at each block's turn (its time less the main thread's wait for seals) | ${sealFree.toFixed(0)} blocks/s |`,
  cpu === undefined
    ? '| CPU by thread | not read |'
    : `| CPU: main thread / every other thread (seal and sender workers, GC, LevelDB) | ${(cpu.mainMs / 1000).toFixed(1)} s / ${(cpu.othersMs / 1000).toFixed(1)} s |`,
  cpu === undefined
    ? ''
    : `| main thread's CPU a block, and the rate it bounds the import to with a core of its own (load-independent) | ${((cpu.mainMs * 1000) / cli.imported).toFixed(0)} µs, ${((cli.imported * 1000) / cpu.mainMs).toFixed(0)} blocks/s |`,
  cpu === undefined
    ? ''
    : `| main thread runnable but without a CPU (the machine's load) | ${(cpu.mainWaitMs / 1000).toFixed(1)} s |`,
  '',
  'Around the import (the command\'s debug "command phase" lines; the machine\'s load stretches these too):',
  '',
  '| phase | wall |',
  '|---|---:|',
  `| process start to the command (launcher's source checks, bundle load, settings) | ${span(0, ph.command)} |`,
  `| the chain's open (LevelDB, genesis state and its flat copy) | ${span(ph.command, ph['chain opened'])} |`,
  `| the files' open (index and frame; the era1 accumulator is checked as the import reads the file) | ${span(ph['chain opened'], ph['files checked'])} |`,
  `| the import (its "import done" line) | ${span(ph['files checked'], ph.imported)} |`,
  `| close (write-behind flush, LevelDB close, workers ending) | ${span(ph.imported, ph.closed)} |`,
  `| after the close to the process's end (as the bench sees it, spawn included) | ${span(ph.closed, cli.wall * 1000)} |`,
  `| process CPU from start to close, every thread | ${cli.processCpuMs === undefined ? 'not read' : `${(cli.processCpuMs / 1000).toFixed(1)} s`} |`,
  '',
  `Head after the run: block ${cli.head} ${cli.hash}: ${headRight ? 'right' : `WRONG (the file's last is ${expected.number} ${expected.hash})`}.`,
  `Goal ≥ 1,000 blocks/s (process wall): ${blocksPerSecond >= 1000 ? 'met' : 'NOT met'}.`,
  '',
  "Where the importing (main) thread's time went (wall time; from the import's `mainThreadMs`):",
  '',
  '| step | s | share | µs a block |',
  '|---|---:|---:|---:|',
  row('decode (RLP to blocks, on the main thread)', t.decode),
  row('wait for seal and sender checks (worker threads)', t.sealWait),
  row('wait for the file (read-ahead empty)', t.readWait),
  row('validate (header, body, uncle rules; store reads)', t.validate),
  row('execute (state open, transactions, rewards, roots)', t.execute),
  row('store (batch, fork choice, flat-state diff, LevelDB write)', t.store),
  row('other (file reading and unframing, progress, idle turns)', t.other),
  '',
  '## Projection to the whole chain',
  '',
  '(From the Mgas/s rows of bench/results/mgas.md: written by that bench.)',
  '',
].join('\n');
mkdirSync(join(repo, 'bench/results'), { recursive: true });
writeFileSync(join(repo, 'bench/results/import-history.md'), report);
process.stdout.write(`\n${report}`);

/**
 * `npx tsx bench/import-history.ts` (also run by `npm run bench`): real ETC history, era1 epoch 0 (blocks 0–8191,
 * 1,410 uncles, every seal checked). Writes bench/results/import-history.md with:
 * - the cost of one Ethash light verification on this thread (the seal of one header or uncle);
 * - the same blocks imported in this process with seals checked one by one at import vs. a batch ahead on the
 *   worker pool (the first IMPORT_BENCH_AB blocks, default 1024, fresh datadirs): before/after on one machine state;
 * - the row "import real blocks (era1 epoch 0)": `svc-node --network etc import <era1>` as a process into a fresh
 *   datadir, its wall time and blocks/s (process start and genesis included), and the import's own rate.
 * Goal (issue 25): ≥ 1,000 blocks/s on a 2-core machine.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RLP } from '@ethereumjs/rlp';
import { Era1File } from '../src/chain/archive/era1.js';
import { importHistory } from '../src/chain/archive/history-import.js';
import { ChainEngine } from '../src/chain/engine/engine.js';
import { datasetSize } from '../src/chain/pow/epoch.js';
import { Ethash, sealHash } from '../src/chain/pow/ethash.js';
import { checkSeal } from '../src/chain/pow/seal.js';
import { createBlockHeaderFromBytesArray } from '@ethereumjs/block';
import { getNetwork } from '../src/chain/networks/index.js';
import { evmRulesAt } from '../src/chain/rules/evmRules.js';

const repo = fileURLToPath(new URL('../', import.meta.url));
const ERA1 = process.env.IMPORT_BENCH_ERA1 ?? '/work/shared/vectors/realchain/mainnet-00000-5ec1ffb8.era1';
const AB_BLOCKS = Number(process.env.IMPORT_BENCH_AB ?? 1024);
const cacheDir = join(tmpdir(), 'svc-node-test-ethash');
const silent = { info: () => {} };

async function sealCostMs(): Promise<number> {
  const pow = await Ethash.create({ params: {}, cacheDir, sealWorkers: 0 });
  const cache = await pow.cacheFor(1);
  const era = await Era1File.open(ERA1);
  const common = evmRulesAt(getNetwork('etc'), 1n);
  const headers = [];
  for await (const b of era.blocks(1n)) {
    headers.push(createBlockHeaderFromBytesArray(RLP.decode(b.header) as Uint8Array[], { common }));
    if (headers.length >= 300) break;
  }
  await era.close();
  const size = datasetSize(0);
  const started = process.cpuUsage();
  for (const h of headers) {
    const ok = checkSeal(cache, size, {
      powHash: sealHash(h),
      nonce: h.nonce,
      mixDigest: h.mixHash,
      difficulty: h.difficulty,
    });
    if (!ok.valid) throw new Error(`seal of block ${h.number} invalid`);
  }
  const used = process.cpuUsage(started);
  await pow.close();
  return (used.user + used.system) / 1000 / headers.length;
}

/** Imports the era1's first `blocks` blocks in this process; seals one by one (workers 0) or a batch ahead. */
async function inProcess(blocks: number, sealWorkers: number | undefined): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-node-import-bench-'));
  try {
    const engine = await ChainEngine.open({
      dataDir: dir,
      network: 'etc',
      powCacheDir: cacheDir,
      ...(sealWorkers !== undefined ? { sealWorkers } : {}),
    });
    const stop = new AbortController();
    engine.chain.on('newHead', (b) => {
      if (Number(b.header.number) >= blocks) stop.abort();
    });
    const out = await importHistory({ chain: engine.chain, files: [ERA1], log: silent, signal: stop.signal });
    await engine.close();
    return out.imported / out.seconds;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function throughSvcNode(): Promise<{ wall: number; imported: number; rate: number; head: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-node-import-bench-'));
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/main.ts',
      '--network',
      'etc',
      '--datadir',
      dir,
      '--ethash.cachedir',
      cacheDir,
      'import',
      ERA1,
    ],
    { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const wall = (performance.now() - started) / 1000;
  rmSync(dir, { recursive: true, force: true });
  const done = out
    .split('\n')
    .map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        return undefined;
      }
    })
    .find((l) => l?.msg === 'import done');
  if (code !== 0 || done === undefined) throw new Error(`svc-node import exited with ${code}`);
  return { wall, imported: Number(done.imported), rate: Number(done.blocksPerSecond), head: String(done.hash) };
}

const seal = await sealCostMs();
process.stdout.write(`one seal (light verification): ${seal.toFixed(2)} ms CPU\n`);
const sequential = await inProcess(AB_BLOCKS, 0);
process.stdout.write(`in-process, seals one by one: ${sequential.toFixed(0)} blocks/s\n`);
const parallel = await inProcess(AB_BLOCKS, undefined);
process.stdout.write(`in-process, seals a batch ahead on workers: ${parallel.toFixed(0)} blocks/s\n`);
const cli = await throughSvcNode();
const blocksPerSecond = cli.imported / cli.wall;
const report = [
  '# Benchmark: import real blocks (era1 epoch 0)',
  '',
  `Date: ${new Date().toISOString()}; Node ${process.version}; ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'};`,
  `load average when done: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(', ')} (other work on the machine slows every row alike).`,
  '',
  `One seal (Ethash light verification, epoch 0, this thread): **${seal.toFixed(2)} ms CPU**; epoch 0 has 8,191`,
  'blocks + 1,410 uncles = 9,601 seals, so the seals alone cost ' +
    `${((seal * 9601) / 1000).toFixed(1)} s of CPU: ${(1000 / seal).toFixed(0)} blocks/s per core at best.`,
  '',
  '| row | blocks/s |',
  '|---|---:|',
  `| in-process, first ${AB_BLOCKS} blocks, seals checked one by one at import (before) | ${sequential.toFixed(0)} |`,
  `| in-process, first ${AB_BLOCKS} blocks, seals a batch ahead on worker threads (after) | ${parallel.toFixed(0)} |`,
  `| **import real blocks (era1 epoch 0)**: \`svc-node --network etc import\`, process wall time ${cli.wall.toFixed(1)} s | **${blocksPerSecond.toFixed(0)}** |`,
  `| the same run, import only (from its "import done" line) | ${cli.rate} |`,
  '',
  `Head after the run: block 8191 ${cli.head}. Goal ≥ 1,000 blocks/s: ${blocksPerSecond >= 1000 ? 'met' : 'NOT met'}.`,
  '',
].join('\n');
mkdirSync(join(repo, 'bench/results'), { recursive: true });
writeFileSync(join(repo, 'bench/results/import-history.md'), report);
process.stdout.write(`\n${report}`);

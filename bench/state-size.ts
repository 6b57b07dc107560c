/**
 * State-size bench (issue 39): datadir bytes of a chain with `--accounts` accounts and `--slots` storage slots, right
 * after it is built (one state + the genesis) and after `--churn` blocks of transfers and storage writes to random
 * accounts and slots, by key tag, per account and per slot; then eth_getBalance and eth_call rates on the head state.
 *
 *   nice -n 5 node --max-old-space-size=8192 --import tsx bench/state-size.ts \
 *     [--accounts 1000000] [--slots 1000000] [--churn 2000] [--gcmode archive|full] [--via import|mine] [--out dir]
 *     [--reads-seconds 5]
 *
 * `--via import` (default): a miner engine on a scratch copy of the base produces the churn blocks (dev miner, Ethash
 * seal, ETC rules) and the measured engine imports each one, as a mordor/etc node does (its import executes through
 * the state manager as is). `--via mine`: the measured datadir is the miner's own (the dev chain's assembly, which
 * runs on exec/flat-state.ts and writes each account's slots once per block).
 *
 * The base (genesis state, state-size-chain.ts) is built once per sizes and mode and cached in the tmp dir
 * (`$TMPDIR/svc-node-state-size/<sizes>-<mode>/base`); each run churns a copy of it (`<out>/datadir`, kept for
 * inspection). Results: `<out>/state-size-<mode>.json` and a markdown table on stdout.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Block } from '@ethereumjs/block';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { ChainEngine } from '../src/chain/engine/engine.js';
import type { PruneCycleFigures } from '../src/chain/blockchain/pruner.js';
import type { StateRetentionOptions } from '../src/chain/state/retention.js';
import { type DatadirSize, measureDatadir } from './datadir-size.js';
import { readRates } from './state-size-reads.js';
import { type StateSizes, churn, contractCount, stateSizeNetwork } from './state-size-chain.js';

const { values } = parseArgs({
  options: {
    accounts: { type: 'string', default: '1000000' },
    slots: { type: 'string', default: '1000000' },
    'slots-per-contract': { type: 'string', default: '1000' },
    churn: { type: 'string', default: '2000' },
    'transfers-per-block': { type: 'string', default: '16' },
    'write-txs-per-block': { type: 'string', default: '4' },
    'slots-per-write-tx': { type: 'string', default: '16' },
    gcmode: { type: 'string', default: 'archive' },
    via: { type: 'string', default: 'import' },
    out: { type: 'string' },
    'reads-seconds': { type: 'string', default: '5' },
  },
});
const sizes: StateSizes = {
  accounts: Number(values.accounts),
  slots: Number(values.slots),
  slotsPerContract: Number(values['slots-per-contract']),
};
const gcmode = values.gcmode;
if (gcmode !== 'archive' && gcmode !== 'full') throw new Error(`--gcmode archive|full, not ${gcmode}`);
const retention: StateRetentionOptions | undefined =
  gcmode === 'full' ? { mode: 'full', keepStates: 128, checkpointInterval: 128, checkpoints: 2 } : undefined;
const churnBlocks = Number(values.churn);
const via = values.via;
if (via !== 'import' && via !== 'mine') throw new Error(`--via import|mine, not ${via}`);
// The suffix changes with the genesis writer, so that a base built by an older one is not reused.
const tag = `${sizes.accounts}a-${sizes.slots}s-${sizes.slotsPerContract}spc-g2`;
const cacheRoot = join(tmpdir(), 'svc-node-state-size');
/** The pruning cycles of the measured engine (full mode). */
const cycles: PruneCycleFigures[] = [];
const ethashDir = join(cacheRoot, 'ethash');
const out = values.out ?? join(cacheRoot, `run-${tag}-${gcmode}`);

interface Phase {
  wallSeconds: number;
  cpuSeconds: number;
}
async function timed<T>(what: string, run: () => Promise<T>): Promise<[T, Phase]> {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const result = await run();
  const used = process.cpuUsage(cpu);
  const phase = { wallSeconds: (performance.now() - wall) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
  const heap = (process.memoryUsage().rss / 2 ** 20).toFixed(0);
  process.stdout.write(
    `${what}: ${phase.wallSeconds.toFixed(1)} s wall, ${phase.cpuSeconds.toFixed(1)} s CPU, rss ${heap} MiB\n`,
  );
  return [result, phase];
}

const open = (dataDir: string, stateRoot?: Uint8Array) =>
  ChainEngine.open({
    dataDir,
    network: stateSizeNetwork(sizes, stateRoot),
    powCacheDir: ethashDir,
    mining: { coinbase: new Uint8Array(20).fill(0xcb) },
    ...(retention ? { retention } : {}),
    ...(retention ? { pruning: { onCycle: (f: PruneCycleFigures) => cycles.push(f) } } : {}),
  });

/** The genesis-only datadir of these sizes and mode, built unless cached. */
async function base(): Promise<{ dir: string; stateRoot: Uint8Array; build?: Phase }> {
  const cacheDir = join(cacheRoot, `${tag}-${gcmode}`);
  const dir = join(cacheDir, 'base');
  const done = join(cacheDir, 'done');
  if (existsSync(done)) {
    process.stdout.write(`base: cached in ${dir}\n`);
    const recorded = JSON.parse(readFileSync(done, 'utf8')) as { stateRoot: `0x${string}`; build: Phase };
    return { dir, stateRoot: hexToBytes(recorded.stateRoot), build: recorded.build };
  }
  rmSync(cacheDir, { recursive: true, force: true });
  mkdirSync(cacheDir, { recursive: true });
  const [stateRoot, build] = await timed(
    `base: genesis of ${sizes.accounts} accounts, ${sizes.slots} slots`,
    async () => {
      const engine = await open(dir);
      const root = engine.chain.getHead().header.stateRoot;
      await engine.close();
      return root;
    },
  );
  writeFileSync(done, JSON.stringify({ sizes, gcmode, stateRoot: bytesToHex(stateRoot), build }));
  return { dir, stateRoot, build };
}

const { dir: baseDir, stateRoot, build } = await base();
const dataDir = join(out, 'datadir');
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const [, copy] = await timed('copy of the base', async () => cpSync(baseDir, dataDir, { recursive: true }));
const [built, measureBuilt] = await timed('measure after build', () => measureDatadir(dataDir));
const resultFile = join(out, `state-size-${gcmode}.json`);
// Written now too, so that a run stopped during the churn still leaves the build's figures.
writeFileSync(
  resultFile,
  `${JSON.stringify({ sizes, gcmode, stateRoot: bytesToHex(stateRoot), build, built }, null, 2)}\n`,
);

const minerDir = join(out, 'miner');
rmSync(minerDir, { recursive: true, force: true });
if (via === 'import') cpSync(baseDir, minerDir, { recursive: true });
const [engine, reopen] = await timed('open the copy', () => open(dataDir, stateRoot));
const miner = via === 'import' ? await open(minerDir, stateRoot) : engine;
let churned: Phase;
let churnTail: Phase | undefined;
let reads: Awaited<ReturnType<typeof readRates>> | undefined;
const importInto = async (block: Block) => {
  const imported = await engine.chain.importBlock(block);
  if (imported.status !== 'head') throw new Error(`block ${block.header.number} imported as ${imported.status}`);
};
try {
  const started = performance.now();
  [, churned] = await timed(`churn: ${churnBlocks} blocks`, () =>
    churn(miner, sizes, {
      ...(via === 'import' ? { onBlock: importInto } : {}),
      blocks: churnBlocks,
      transfersPerBlock: Number(values['transfers-per-block']),
      writeTxsPerBlock: Number(values['write-txs-per-block']),
      slotsPerWriteTx: Number(values['slots-per-write-tx']),
      onProgress: (done) => {
        if (done % 100 === 0 || done === churnBlocks)
          process.stdout.write(
            `  ${done}/${churnBlocks} blocks (${((performance.now() - started) / 1000).toFixed(0)} s)\n`,
          );
      },
    }),
  );
  // The automatic cycles leave up to their trigger's worth of garbage behind: the datadir is measured as they left
  // it (a cycle under way at the end is waited for), then after one more cycle (the floor a full node returns to).
  const automatic = cycles.length;
  if (engine.chain.pruning !== undefined) {
    const [, waited] = await timed('churn: a cycle under way waited for', () => engine.chain.pruning!.idle());
    churnTail = waited;
  }
  const seconds = Number(values['reads-seconds']);
  if (seconds > 0) reads = await readRates(engine, sizes, seconds);
  process.stdout.write(`pruning cycles during the churn: ${automatic}\n`);
} finally {
  if (miner !== engine) await miner.close();
  await engine.close();
  rmSync(minerDir, { recursive: true, force: true });
}
const [after, measureAfter] = await timed('measure after churn', () => measureDatadir(dataDir));
let afterCycle: DatadirSize | undefined;
if (retention) {
  const pruned = await open(dataDir, stateRoot);
  try {
    await timed('one more pruning cycle', async () => {
      const figures = await pruned.chain.pruning?.prune(false);
      process.stdout.write(`  cycle: ${JSON.stringify(figures)}\n`);
    });
  } finally {
    await pruned.close();
  }
  [afterCycle] = await timed('measure after that cycle', () => measureDatadir(dataDir));
}

const result = {
  date: new Date().toISOString(),
  sizes,
  contracts: contractCount(sizes),
  gcmode,
  via,
  stateRoot: bytesToHex(stateRoot),
  retention,
  churn: {
    blocks: churnBlocks,
    transfersPerBlock: Number(values['transfers-per-block']),
    writeTxsPerBlock: Number(values['write-txs-per-block']),
    slotsPerWriteTx: Number(values['slots-per-write-tx']),
  },
  phases: { build, copy, measureBuilt, reopen, churn: churned, measureAfter },
  built,
  after,
  afterCycle,
  cycles,
  churnTail,
  reads,
};
writeFileSync(resultFile, `${JSON.stringify(result, null, 2)}\n`);
process.stdout.write(`\n${table(built, after)}\n`);
if (afterCycle !== undefined) process.stdout.write(`\nafter one more cycle:\n${table(built, afterCycle)}\n`);
process.stdout.write(`results: ${resultFile}\n`);

function table(a: DatadirSize, b: DatadirSize): string {
  const mb = (n: number) => (n / 1e6).toFixed(1);
  const names = [...new Set([...Object.keys(a.tags), ...Object.keys(b.tags)])].sort();
  const rows = [
    `| ${gcmode}, via ${via} | after build | after ${churnBlocks} blocks of churn |`,
    '| --- | ---: | ---: |',
    `| datadir on disk, MB | ${mb(a.diskBytes)} | ${mb(b.diskBytes)} |`,
    `| chaindata on disk, MB | ${mb(a.chaindataDiskBytes)} | ${mb(b.chaindataDiskBytes)} |`,
  ];
  const cell = (t: DatadirSize['tags'][string] | undefined) =>
    t === undefined ? '–' : `${t.entries.toLocaleString('en')} / ${mb(t.keyBytes + t.valueBytes)}`;
  for (const n of names) rows.push(`| ${n}: entries / key+value MB | ${cell(a.tags[n])} | ${cell(b.tags[n])} |`);
  // The trie nodes are keyed by hash, so a scan cannot tell account nodes from storage nodes: runs with
  // `--slots 0` and with `--accounts 0` split the bytes between accounts and slots.
  const items = sizes.accounts + sizes.slots;
  const per = (d: DatadirSize) => (items > 0 ? (d.diskBytes / items).toFixed(0) : '–');
  rows.push(`| datadir bytes per account-or-slot | ${per(a)} | ${per(b)} |`);
  const state = (d: DatadirSize) => (d.tags.S ? ((d.tags.S.keyBytes + d.tags.S.valueBytes) / items).toFixed(0) : '–');
  rows.push(`| S (trie + code) key+value bytes per account-or-slot | ${state(a)} | ${state(b)} |`);
  return rows.join('\n');
}

/**
 * Logs over JSON-RPC, end to end (HTTP server, handlers, engine, LevelDB):
 *
 * 1. `eth_getLogs` over 1k and 10k blocks with one matching log per 100 blocks. A 10,000-block chain
 *    (4 transactions with one log each per block) is written with the engine's own block store and log
 *    index on top of the real dev genesis, then the node is started on it and queried over HTTP.
 *    Target: the 10k-block query under 50 ms.
 * 2. Block import with 1,000 open log filters and 200 WebSocket subscribers against a bare node: the same
 *    blocks (20 event transactions each) are imported into fresh nodes. Three times per run:
 *    - import path: the chain's own `importBlock` calls back to back, i.e. what the chain pays before it
 *      can import the next block (filter fan-out runs on later event-loop turns, but on the same thread, so
 *      whatever of it overlaps the imports is included here);
 *    - delivered: until every filter and subscription has processed every block (notifications handed to
 *      the sockets);
 *    - received: until the subscriber process has parsed every notification it was due.
 *    Target (issue 4): import path at most 20 % slower than the bare node.
 * 3. The filter manager's own fan-out, without the import or sockets: the same blocks replayed into a
 *    FilterManager holding the 1,000 log filters (and 100 + 100 in-process subscriptions with counting
 *    listeners), CPU time per block. Isolates the matching and buffering cost from the machine's load.
 *    The subscribers run in a child process (bench/ws-subscribers.ts), which counts every notification.
 *    It runs at the lowest scheduling priority (nice 19): subscribers are remote in real use, and on a
 *    2-core machine a same-priority child parsing 2,000+ notifications a block took the CPU from the node's
 *    import (several ms a block of the main thread waiting for a CPU), which is not the node's cost. Its
 *    start-up and its exit are outside the measured time. BENCH_SUBSCRIBER_NICE=0 gives the old set-up.
 *
 *   npx tsx bench/logs-rpc.ts            writes bench/results/logs-rpc.md
 * Knobs: BENCH_LOG_BLOCKS (10000; 0 skips part 1), BENCH_IMPORT_BLOCKS (80), BENCH_IMPORT_RUNS (7),
 * BENCH_LOADS (none,filters,spread,busy), BENCH_OUT (bench/results/logs-rpc.md),
 * BENCH_SUBSCRIBER_NICE (19), BENCH_PIN (1: subscribers on the last CPU), BENCH_PROFILE=<dir>: a V8 CPU profile of the node's process from the first import to full delivery, one file
 * per measured run (<load>-<run>.cpuprofile), so the set-up and the block building stay out of it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Session } from 'node:inspector/promises';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createBlock, type Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { Address } from '@ethereumjs/util';
import { BlockCodec } from '../src/chain/codec/block-codec.js';
import { BlockStore } from '../src/chain/db/block-store.js';
import { ChainDB, WriteBatch } from '../src/chain/db/chain-db.js';
import { etcEngineRules } from '../src/chain/engine/engine-adapters.js';
import { combineBlooms, logsBloomOf, type ReceiptLog, type TxReceipt } from '../src/chain/codec/receipts.js';
import { sharedCommon } from '../src/chain/exec/shared-common.js';
import { FilterManager } from '../src/chain/filters/filter-manager.js';
import { chainLogSource } from '../src/chain/filters/chain-source.js';
import { indexWrites } from '../src/chain/logs/log-index.js';
import { dev } from '../src/chain/networks/index.js';
import { runCli } from '../src/cli/cli.js';
import { notificationFlushes } from '../src/server/ws-outbox.js';
import { keys as devKeys, tempDir } from '../test/chain/engine/fixtures.js';
import { addToPool, deployEmitter, pingTx, PING_TOPIC } from '../test/rpc/logs-fixture.js';

const repo = fileURLToPath(new URL('../', import.meta.url));
const LOG_BLOCKS = Number(process.env.BENCH_LOG_BLOCKS ?? 10_000);
const IMPORT_BLOCKS = Number(process.env.BENCH_IMPORT_BLOCKS ?? 80);
const IMPORT_RUNS = Number(process.env.BENCH_IMPORT_RUNS ?? 7);
const OUT = process.env.BENCH_OUT ?? 'bench/results/logs-rpc.md';
const PROFILE_DIR = process.env.BENCH_PROFILE;
const SUBSCRIBER_NICE = Number(process.env.BENCH_SUBSCRIBER_NICE ?? 19);
/**
 * The subscriber process kept on the last CPU (the node's threads may use every CPU; at nice 19 the subscribers
 * yield to them), as a load generator is kept apart from the system under test. BENCH_PIN=0: not pinned.
 */
const PIN_CPU = process.env.BENCH_PIN !== '0' && cpus().length >= 2 && hasTaskset() ? cpus().length - 1 : undefined;

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A full garbage collection (the flag set at run time, as `npx tsx` takes no node flags). */
const fullGc: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

const TX_PER_BLOCK = 4;
const MATCH_EVERY = 100;
const report: string[] = [];
const say = (line: string) => {
  process.stdout.write(`${line}\n`);
  report.push(line);
};

async function startNode(datadir: string, env: Record<string, string> = {}) {
  const quiet = new Writable({ write: (_c, _e, done) => done() });
  const args = ['--datadir', datadir, '--http.port', '0', '--http.addr', '127.0.0.1', '--p2p.port', '0'];
  const outcome = await runCli(
    args,
    { SVC_NODE_MINING_MINING_ENABLED: 'false', ...env },
    { stdout: quiet, stderr: process.stderr },
  );
  if ('exitCode' in outcome) throw new Error(`node did not start (exit ${outcome.exitCode})`);
  return {
    engine: outcome.node.engine!,
    url: outcome.server.url,
    wsUrl: outcome.server.wsUrl!,
    stop: () => outcome.stop(),
  };
}

async function call(url: string, method: string, params: unknown[]): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const json = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (json.error) throw new Error(`${method}: ${json.error.message}`);
  return json.result;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// ---------------------------------------------------------------- 1. eth_getLogs over a long chain

const word = (n: number, tag = 0) => {
  const out = new Uint8Array(32);
  new DataView(out.buffer).setUint32(28, n);
  out[0] = tag;
  return out;
};
const TRANSFER = word(0xddf252ad, 0xdd);
const TARGET = new Uint8Array(20).fill(0x7a);
const noiseAddress = (i: number) => word(i, 0xee).subarray(12);
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;

/** Writes `count` blocks after the dev genesis of `datadir` (created by a first start), as the engine stores them. */
async function writeLongChain(datadir: string, count: number): Promise<void> {
  const first = await startNode(datadir);
  const genesis = first.engine.chain.getGenesis();
  await first.stop();

  const rules = etcEngineRules(dev);
  const commons = new Map<string, Common>();
  const shared = (c: Common) => {
    const key = `${c.hardfork()}|${c.eips().join(',')}`;
    if (!commons.has(key)) commons.set(key, sharedCommon(c));
    return commons.get(key)!;
  };
  const commonAt = (n: bigint) => shared(rules.commonAt(n));
  const txCommonAt = (n: bigint) => shared(rules.txCommonAt?.(n) ?? rules.commonAt(n));
  const db = await ChainDB.open(join(datadir, 'chaindata'));
  const store = new BlockStore(db, new BlockCodec(commonAt, txCommonAt), commonAt);
  // Distinct signed transactions reused across blocks: signing 40k would dominate the set-up.
  const txs: TypedTransaction[] = Array.from({ length: 400 }, (_, i) =>
    createLegacyTx(
      {
        nonce: BigInt(i),
        to: new Address(noiseAddress(i)),
        gasLimit: 60_000n,
        gasPrice: 1_000_000_000n,
        data: word(i),
      },
      { common: txCommonAt(1n) },
    ).sign(devKeys[i % devKeys.length]),
  );
  let parent: Block = genesis;
  let td = genesis.header.difficulty;
  let batch = new WriteBatch();
  for (let n = 1; n <= count; n++) {
    const number = BigInt(n);
    const receipts: TxReceipt[] = Array.from({ length: TX_PER_BLOCK }, (_, t) => {
      const matching = n % MATCH_EVERY === MATCH_EVERY / 2 && t === 2;
      const logs: ReceiptLog[] = [
        {
          address: matching ? TARGET : noiseAddress((n * TX_PER_BLOCK + t) % 50),
          topics: [TRANSFER, word(n), word(t)],
          data: word(n * TX_PER_BLOCK + t),
        },
      ];
      return {
        type: 0,
        status: 1,
        cumulativeGasUsed: BigInt((t + 1) * 30_000),
        gasUsed: 30_000n,
        logs,
        logsBloom: logsBloomOf(logs),
        from: new Uint8Array(20),
      };
    });
    const block = createBlock(
      {
        header: {
          number,
          parentHash: parent.hash(),
          gasLimit: parent.header.gasLimit,
          gasUsed: BigInt(TX_PER_BLOCK * 30_000),
          difficulty: 131_072n,
          timestamp: parent.header.timestamp + 13n,
          logsBloom: combineBlooms(receipts.map((r) => r.logsBloom)),
        },
        transactions: Array.from({ length: TX_PER_BLOCK }, (_, t) => txs[(n * TX_PER_BLOCK + t) % txs.length]),
      },
      { common: commonAt(number) },
    );
    td += block.header.difficulty;
    store.stageBlock(batch, block, receipts, td);
    store.stageCanonical(batch, block);
    batch.ops.push(...indexWrites(block, receipts));
    if (n % 500 === 0 || n === count) {
      store.stageHead(batch, block.hash());
      await db.write(batch);
      batch = new WriteBatch();
    }
    parent = block;
  }
  await db.close();
}

async function benchGetLogs(): Promise<number | undefined> {
  const dir = tempDir('bench-logs-rpc-');
  try {
    const t0 = performance.now();
    await writeLongChain(dir.dir, LOG_BLOCKS);
    say(
      `set-up: ${LOG_BLOCKS} blocks, ${LOG_BLOCKS * TX_PER_BLOCK} logs written in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const node = await startNode(dir.dir);
    let tenK: number | undefined;
    try {
      const head = node.engine.chain.getHead().header.number;
      say('');
      say(
        `eth_getLogs over HTTP, filter {address: target, topics: [Transfer]}, one matching log per ${MATCH_EVERY} blocks`,
      );
      say('');
      say('| blocks | logs | first query (ms) | median of 9 (ms) |');
      say('|---:|---:|---:|---:|');
      for (const range of [1_000, 10_000].filter((r) => r <= LOG_BLOCKS)) {
        const filter = {
          fromBlock: `0x${(head - BigInt(range) + 1n).toString(16)}`,
          toBlock: 'latest',
          address: hex(TARGET),
          topics: [hex(TRANSFER)],
        };
        const times: number[] = [];
        let logs = 0;
        for (let i = 0; i < 10; i++) {
          const t = performance.now();
          logs = (await call(node.url, 'eth_getLogs', [filter])).length;
          times.push(performance.now() - t);
        }
        const warm = median(times.slice(1));
        if (range === 10_000) tenK = warm;
        say(`| ${range} | ${logs} | ${times[0].toFixed(1)} | ${warm.toFixed(1)} |`);
      }
    } finally {
      await node.stop();
    }
    return tenK;
  } finally {
    dir.remove();
  }
}

// ---------------------------------------------------------------- 2. import with filters and subscribers

const FILTERS = 1_000;
const SUBSCRIBERS = 200;
const TXS_PER_IMPORTED_BLOCK = 20;

async function buildBlocks(): Promise<Block[]> {
  const dir = tempDir('bench-import-src-');
  const node = await startNode(dir.dir);
  try {
    const emitter = await deployEmitter(node.engine);
    let nonce = 1n;
    for (let b = 0; b < IMPORT_BLOCKS; b++) {
      await addToPool(
        node.engine,
        Array.from({ length: TXS_PER_IMPORTED_BLOCK }, (_, i) => pingTx(node.engine, emitter, nonce++, b * 100 + i)),
      );
      await node.engine.miner.mineBlocks(1);
    }
    const blocks: Block[] = [];
    for (let n = 1n; n <= node.engine.chain.getHead().header.number; n++)
      blocks.push((await node.engine.chain.getBlock(n))!);
    return blocks;
  } finally {
    await node.stop();
    dir.remove();
  }
}

/** The subscribers in their own process; resolves once all subscriptions are confirmed. */
async function startSubscribers(wsUrl: string, addresses: readonly string[]) {
  const command = [
    process.execPath,
    '--import',
    'tsx',
    'bench/ws-subscribers.ts',
    wsUrl,
    String(SUBSCRIBERS),
    addresses.join(','),
  ];
  const niced = SUBSCRIBER_NICE === 0 ? command : ['nice', '-n', String(SUBSCRIBER_NICE), ...command];
  const placed = PIN_CPU !== undefined ? ['taskset', '-c', String(PIN_CPU), ...niced] : niced;
  const child = spawn(placed[0], placed.slice(1), {
    cwd: repo,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const next = () => new Promise<string>((resolve) => lines.once('line', resolve));
  if ((await next()) !== 'ready') throw new Error('subscribers did not start');
  return {
    /** Resolves with the count once the subscribers have received `expected` notifications (or after `timeoutMs`). */
    async receivedAll(expected: number, timeoutMs: number): Promise<number> {
      child.stdin!.write(`wait ${expected} ${timeoutMs}\n`);
      return Number((await next()).split(' ')[1]);
    },
    /** Resolves once the process has exited, so its tear-down does not overlap the next run. */
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin!.write('exit\n');
      }),
  };
}

/**
 * `filters` = the 1,000 polled filters alone. How the 200 subscribers' log subscriptions are aimed: `busy` = all at the contract that logs in every
 * block (each gets all 20 logs of every block: the worst case), `spread` = over ten contracts of which
 * only that one is active (a tenth of them get its logs).
 */
type Load = 'none' | 'filters' | 'busy' | 'spread';
const SPREAD = 10;

interface ImportTimes {
  /** The `importBlock` calls alone. */
  readonly importMs: number;
  /** Until every filter and subscription has processed every block. */
  readonly deliveredMs: number;
  /** Until the subscriber process has received every notification (= deliveredMs without subscribers). */
  readonly receivedMs: number;
  /** CPU time (user + system) of the node's process from the first import to full delivery: less sensitive to other load than wall time. */
  readonly cpuMs: number;
  /** The longest a notification waited in a connection's outbox (queued to written), event-loop delays included. */
  readonly longestWaitMs: number;
  /** The widest flush window the scheduler used. */
  readonly widestWindowMs: number;
  /** On-CPU time of the node's main thread during the import calls (NaN where the kernel does not say). */
  readonly importThreadMs: number;
  /** Time the main thread was ready to run but waited for a CPU during the import calls: the machine's contention. */
  readonly importWaitMs: number;
}

/**
 * The main thread's own scheduler counters (Linux `/proc/<pid>/task/<pid>/schedstat`): nanoseconds on a CPU
 * and waiting on a run queue. Unlike `process.cpuUsage` they leave out the database, GC and worker threads, and
 * unlike wall time they do not count the time other processes (the subscriber process, other benchmarks on a
 * shared machine) held the CPU: the cost on the one thread that imports blocks and fans out notifications.
 */
function mainThreadSchedule(): { readonly runMs: number; readonly waitMs: number } {
  try {
    const [run, wait] = readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, 'utf8')
      .split(' ')
      .map(Number);
    return { runMs: run / 1e6, waitMs: wait / 1e6 };
  } catch {
    return { runMs: NaN, waitMs: NaN };
  }
}

/** Imports `blocks[1..]` into a fresh node under `load`. */
async function importTimes(blocks: readonly Block[], load: Load, profileAs?: string): Promise<ImportTimes> {
  const loaded = load !== 'none';
  const dir = tempDir('bench-import-');
  const node = await startNode(dir.dir);
  let subscribers: Awaited<ReturnType<typeof startSubscribers>> | undefined;
  try {
    await node.engine.chain.importBlock(blocks[0]);
    const emitterAddress = (await node.engine.chain.getReceipts(blocks[0].hash()))![0].contractAddress!;
    const rest = blocks.length - 1;
    if (loaded) {
      for (let i = 0; i < FILTERS; i++) {
        // A mix of log filters: the busy emitter, an address of its own that never logs, the emitter's event
        // topic, and that topic with a second one of its own (which never matches, but shares the first).
        const kind = i % 4;
        const filter =
          kind === 0
            ? { address: hex(emitterAddress) }
            : kind === 1
              ? { address: hex(noiseAddress(i)) }
              : kind === 2
                ? { topics: [PING_TOPIC] }
                : { topics: [PING_TOPIC, hex(word(i))] };
        await call(node.url, 'eth_newFilter', [filter]);
      }
      const quiet = Array.from({ length: SPREAD - 1 }, (_, i) => hex(noiseAddress(1_000 + i)));
      if (load !== 'filters')
        subscribers = await startSubscribers(
          node.wsUrl,
          load === 'busy' ? [hex(emitterAddress)] : [hex(emitterAddress), ...quiet],
        );
    }
    const logSubscribersOfEmitter = load === 'busy' ? SUBSCRIBERS / 2 : Math.ceil(SUBSCRIBERS / 2 / SPREAD);
    const expected = (SUBSCRIBERS / 2) * rest + logSubscribersOfEmitter * rest * TXS_PER_IMPORTED_BLOCK;
    fullGc(); // each run starts from a clean heap, not with the garbage of the nodes before it
    const received = subscribers?.receivedAll(expected, 60_000);
    const profiler = profileAs === undefined ? undefined : await startProfiler();
    notificationFlushes.longestWaitMs = 0;
    notificationFlushes.longestWindowMs = 0;
    const cpu = process.cpuUsage();
    const t = performance.now();
    let importing = 0;
    const thread = mainThreadSchedule();
    for (const block of blocks.slice(1)) {
      const start = performance.now();
      await node.engine.chain.importBlock(block);
      importing += performance.now() - start;
    }
    const threadAfter = mainThreadSchedule();
    await node.engine.logs.filters.settled();
    await new Promise((r) => setImmediate(r)); // newHeads wait for a total-difficulty read
    await notificationFlushes.idle(); // notifications of back-to-back blocks are written together (ws-outbox.ts)
    const deliveredMs = performance.now() - t;
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    if (profiler !== undefined) await profiler.stopInto(join(PROFILE_DIR!, `${profileAs}.cpuprofile`));
    let receivedMs = deliveredMs;
    if (received !== undefined) {
      const got = await received;
      receivedMs = performance.now() - t;
      if (got !== expected) throw new Error(`subscribers received ${got} notifications, expected ${expected}`);
    }
    return {
      importMs: importing,
      deliveredMs,
      receivedMs,
      cpuMs,
      longestWaitMs: notificationFlushes.longestWaitMs,
      widestWindowMs: notificationFlushes.longestWindowMs,
      importThreadMs: threadAfter.runMs - thread.runMs,
      importWaitMs: threadAfter.waitMs - thread.waitMs,
    };
  } finally {
    await subscribers?.stop();
    await node.stop();
    dir.remove();
  }
}

/** A CPU profile of this process (main thread) until `stopInto` writes it. */
async function startProfiler() {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 250 }); // µs: a block's fan-out is a few ms
  await session.post('Profiler.start');
  return {
    async stopInto(file: string): Promise<void> {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(profile));
    },
  };
}

/** The 1,000 log filters of the import bench, as engine criteria. */
function filterSpecs(emitter: Uint8Array) {
  const ping = Buffer.from(PING_TOPIC.slice(2), 'hex');
  return Array.from({ length: FILTERS }, (_, i) => {
    const kind = i % 4;
    return kind === 0
      ? { addresses: [emitter] }
      : kind === 1
        ? { addresses: [noiseAddress(i)] }
        : kind === 2
          ? { topics: [ping] }
          : { topics: [ping, word(i)] };
  });
}

async function benchFanOut(blocks: readonly Block[]): Promise<void> {
  const dir = tempDir('bench-fanout-');
  const node = await startNode(dir.dir);
  try {
    const chain = node.engine.chain;
    for (const block of blocks) await chain.importBlock(block);
    const emitter = (await chain.getReceipts(blocks[0].hash()))![0].contractAddress!;
    const cases = [
      { name: `${FILTERS} log filters`, subscriptions: false },
      {
        name: `${FILTERS} log filters + 100 log subscriptions on the active contract + 100 newHeads (in-process listeners)`,
        subscriptions: true,
      },
    ];
    say('');
    say(
      `filter manager fan-out alone: ${blocks.length - 1} blocks replayed into a fresh manager, ${IMPORT_RUNS} runs; CPU ms per block, fastest / median`,
    );
    say('');
    say('| watchers | CPU ms per block |');
    say('|---|---:|');
    for (const c of cases) {
      const perBlock: number[] = [];
      for (let run = 0; run < IMPORT_RUNS; run++) {
        const manager = new FilterManager<Block>({
          source: chainLogSource(chain),
          queries: node.engine.logs.queries,
          blockByHash: (h) => chain.getBlock(h),
          initialHead: blocks[0],
        });
        for (const spec of filterSpecs(emitter)) await manager.newLogFilter(spec);
        let seen = 0;
        if (c.subscriptions) {
          for (let i = 0; i < 100; i++) await manager.subscribeLogs({ addresses: [emitter] }, () => seen++);
          for (let i = 0; i < 100; i++) await manager.subscribeNewHeads(() => seen++);
        }
        const cpu = process.cpuUsage();
        for (const block of blocks.slice(1)) manager.onNewHead(block);
        await manager.settled();
        const used = process.cpuUsage(cpu);
        perBlock.push((used.user + used.system) / 1000 / (blocks.length - 1));
        if (c.subscriptions && seen !== 100 * (blocks.length - 1) * (TXS_PER_IMPORTED_BLOCK + 1))
          throw new Error(`listeners saw ${seen} notifications`);
        manager.close();
      }
      say(`| ${c.name} | ${Math.min(...perBlock).toFixed(2)} / ${median(perBlock).toFixed(2)} |`);
    }
  } finally {
    await node.stop();
    dir.remove();
  }
}

async function benchImport(): Promise<void> {
  const blocks = await buildBlocks();
  if (process.env.BENCH_FANOUT !== '0') await benchFanOut(blocks);
  const loads = (process.env.BENCH_LOADS ?? 'none,filters,spread,busy').split(',') as Load[];
  const runs = new Map<Load, ImportTimes[]>(loads.map((l) => [l, []]));
  await importTimes(blocks, 'none'); // warm-up (JIT, caches), discarded
  for (let run = 0; run < IMPORT_RUNS; run++)
    for (const load of loads)
      runs.get(load)!.push(await importTimes(blocks, load, PROFILE_DIR === undefined ? undefined : `${load}-${run}`));
  const n = blocks.length - 1;
  // On a shared machine other processes only ever add time: the fastest run is the truest cost, the median is shown too.
  const fastest = (xs: number[]) => Math.min(...xs);
  const of = (load: Load, key: keyof ImportTimes) => runs.get(load)!.map((r) => r[key]);
  const label: Record<Load, string> = {
    none: 'bare',
    filters: `${FILTERS} log filters, no subscribers`,
    busy: `${FILTERS} log filters + ${SUBSCRIBERS} WS subscribers, log subscribers all on the active contract`,
    spread: `${FILTERS} log filters + ${SUBSCRIBERS} WS subscribers, log subscribers over ${SPREAD} contracts`,
  };
  const perBlock = (xs: number[]) => `${(fastest(xs) / n).toFixed(2)} / ${(median(xs) / n).toFixed(2)}`;
  /**
   * The slowdown of `load` as the median over runs of its time against the bare node's in the same run: the
   * cases of one run follow each other within seconds, so drift on the machine (another job, a LevelDB
   * compaction of an earlier run) touches both sides of a pair, where fastest-against-fastest turns on one lucky run.
   */
  const paired = (load: Load, key: keyof ImportTimes) => {
    if (!runs.has('none') || load === 'none') return '';
    const ratios = of(load, key).map((x, i) => x / of('none', key)[i]);
    return `${((median(ratios) - 1) * 100).toFixed(0)} %`;
  };
  /** `key` of `load` against `base` of the bare node, fastest runs (medians in brackets). */
  const slowdown = (load: Load, key: keyof ImportTimes, base: keyof ImportTimes = 'importMs') => {
    if (!runs.has('none') || load === 'none') return '';
    const pct = (a: number, b: number) => `${((a / b - 1) * 100).toFixed(0)} %`;
    return `${pct(fastest(of(load, key)), fastest(of('none', base)))} (${pct(median(of(load, key)), median(of('none', base)))})`;
  };
  say('');
  say(
    `block import, ${n} blocks of ${TXS_PER_IMPORTED_BLOCK} event transactions (one active contract), ${IMPORT_RUNS} interleaved runs per case.`,
  );
  say(
    'ms per block as fastest / median run. Slowdown: the median over runs of each run against the bare node of the same run;',
  );
  say('then fastest against fastest run (median against median in brackets).');
  say('Wall time counts whatever else held the CPU (the subscriber process, other jobs on the machine); the main');
  say("thread's own CPU during the imports does not, and its run-queue wait shows how contended the machine was.");
  say('');
  say(
    '| node | notifications per block | import path (wall) | slowdown | fastest (median) | import path (main-thread CPU) | slowdown | main thread waiting for a CPU | delivered | received by subscribers | node CPU to delivery (all threads) | import path per run (ms total) |',
  );
  say('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const load of loads) {
    const notifications =
      load === 'none' || load === 'filters'
        ? 0
        : SUBSCRIBERS / 2 +
          (load === 'busy' ? SUBSCRIBERS / 2 : Math.ceil(SUBSCRIBERS / 2 / SPREAD)) * TXS_PER_IMPORTED_BLOCK;
    say(
      `| ${label[load]} | ${notifications} | ${perBlock(of(load, 'importMs'))} | ${load === 'none' ? '' : `**${paired(load, 'importMs')}**`} | ${slowdown(load, 'importMs')} | ${perBlock(of(load, 'importThreadMs'))} | ${paired(load, 'importThreadMs')} | ${perBlock(of(load, 'importWaitMs'))} | ${perBlock(of(load, 'deliveredMs'))} | ${perBlock(of(load, 'receivedMs'))} | ${perBlock(of(load, 'cpuMs'))} | ${of(
        load,
        'importMs',
      )
        .map((x) => x.toFixed(0))
        .join(', ')} |`,
    );
  }
  say('');
  const verdicts = loads
    .filter((l) => l !== 'none' && runs.has('none'))
    .map((l) => {
      const ratios = of(l, 'importMs').map((x, i) => x / of('none', 'importMs')[i]);
      return `${label[l]}: ${median(ratios) <= 1.2 ? 'met' : 'NOT met'}`;
    });
  say(
    `Target: import path at most 20 % slower with 1,000 log filters and 200 subscribers (paired median). ${verdicts.join('; ')}.`,
  );
  say('');
  say(
    `Subscriber process ${PIN_CPU !== undefined ? `pinned to CPU ${PIN_CPU}` : 'not pinned'}, at nice ${SUBSCRIBER_NICE}. Notifications of back-to-back blocks share socket writes (window ${notificationFlushes.windowMs} ms, widened to keep writing within 5 % of the thread, at most ${notificationFlushes.maxWindowMs} ms; ${notificationFlushes.perTurn} connections per event-loop turn);`,
  );
  say(
    `widest window per run with subscribers: ${loads
      .filter((l) => l === 'busy' || l === 'spread')
      .flatMap((l) => of(l, 'widestWindowMs'))
      .map((x) => x.toFixed(0))
      .join(', ')} ms;`,
  );
  say(
    `longest a notification waited in an outbox, per run with subscribers: ${loads
      .filter((l) => l === 'busy' || l === 'spread')
      .flatMap((l) => of(l, 'longestWaitMs'))
      .map((x) => x.toFixed(0))
      .join(', ')} ms.`,
  );
}

const startLoad = loadavg()
  .map((x) => x.toFixed(1))
  .join(', ');
say('# Benchmark: logs over JSON-RPC');
say('');
say(`Date: ${new Date().toISOString()}; Node ${process.version}; ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`);
say('');
const tenK = LOG_BLOCKS > 0 ? await benchGetLogs() : undefined;
if (tenK !== undefined)
  say(`\ntarget: 10k-block eth_getLogs under 50 ms: ${tenK.toFixed(1)} ms ${tenK < 50 ? 'met' : 'NOT met'}`);
await benchImport();
say('');
say(
  `Load average at start: ${startLoad}; when done: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(', ')}`,
);
const out = resolve(repo, OUT);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, report.join('\n') + '\n');
process.exit(0);

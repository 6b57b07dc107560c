/**
 * Where a spawned node's CPU goes while it builds empty blocks (qa_mineBlocks(n, false) in calls of 99, the peer
 * bench's logs row), from Linux `perf` CPU-clock samples of every thread: only time a thread ran is sampled, unlike
 * V8's `--cpu-prof`, which samples the main thread by wall clock and, on a loaded machine, charges the time it
 * waited for a core to whatever it was in (a LevelDB batch write showed ~12 µs a block of "self time" that way,
 * while the call only queues work).
 *   npx tsx bench/perf-blocks.ts [--repo DIR] [--blocks 19800] [--freq 2000] [--focus extend] [--keep FILE]
 *     [--row] [--top N] [--warmup N] [--per-call 0 --transfers N] [--folded FILE]
 * `--row` runs the whole peer-bench row (one token transfer sent and mined after each call) and splits the samples
 * by phase and by tenth of the row (warm-up); `--top N` lists the main thread's N largest functions, inclusive.
 * `--warmup N` sends N transfers first, unsampled (the peer report builds its chain on a node that has run the
 * writes section: past its cold JIT); `--per-call 0 --transfers N` sends transfers alone, one after another (the
 * transfer-after-a-transfer baseline of the same client).
 * Needs `perf` (kernel.perf_event_paranoid ≤ 2: a user's own processes). The node runs with `--perf-basic-prof`,
 * which names JIT code in /tmp/perf-<pid>.map (removed after). Prints µs of CPU a block: by thread kind and by
 * what the sample was in (JavaScript, garbage collection, optimising compilation, LevelDB, kernel, C library),
 * then the main thread's time in named functions (inclusive) and the direct callees of `--focus`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort } from '../test/helpers/free-port.js';
import { RECIPIENT } from './compare/fixture.js';
import { RpcClient, waitUntilAnswering } from './compare/rpc.js';
import { TEST_KEYS } from './compare/targets.js';
import { FIRST_TRANSFER_GAS, Sender } from './compare/token.js';

const { values } = parseArgs({
  options: {
    repo: { type: 'string', default: fileURLToPath(new URL('../', import.meta.url)) },
    blocks: { type: 'string', default: '19800' },
    'per-call': { type: 'string', default: '99' },
    freq: { type: 'string', default: '2000' },
    focus: { type: 'string', default: 'extend' },
    keep: { type: 'string' },
    /**
     * The whole row (bench/compare/logs.ts): after each call one token transfer sent and polled until mined; samples
     * are split by phase (the mine calls, the transfers) on CLOCK_MONOTONIC marks.
     */
    row: { type: 'boolean', default: false },
    /** With --row: transfers sent and mined before perf starts (not sampled): the row on a node past its cold JIT. */
    warmup: { type: 'string', default: '0' },
    /** With --row and --per-call 0: how many transfers, one after another (the transfer-after-transfer baseline). */
    transfers: { type: 'string', default: '100' },
    /**
     * With --row: every sample as a folded stack (`phase:thread#tid−pid;root;…;leaf 1`, phase mine or transfer), for
     * comparing two runs function by function, any thread (flamegraph.pl reads it too).
     */
    folded: { type: 'string' },
    /** Also print the main thread's N largest functions by inclusive time. */
    top: { type: 'string' },
  },
});
const blocks = Number(values.blocks);
const perCall = Number(values['per-call']);
const freq = Number(values.freq);

/** Functions whose inclusive main-thread time is printed (JIT names without the tier mark, `*` or `^`). */
const NAMED = [
  'extend',
  'credit',
  'keccak256',
  'sealNow',
  'validateHeader',
  'serialize',
  'stageEmptyCanonicalBlock',
  'writeTo',
  'remember',
  'noteCanonical',
  'emit',
  'applyOps',
  'extendHead',
];

const dataDir = mkdtempSync(join(tmpdir(), 'perf-blocks-'));
const perfFile = values.keep ?? join(dataDir, 'perf.data');
const port = await freePort();
const child = spawn(
  process.execPath,
  [
    '--perf-basic-prof',
    'bin/svc-node.js',
    '--http.port',
    String(port),
    '--no-p2p',
    '--datadir',
    join(dataDir, 'node'),
    '--log-level',
    'warn',
  ],
  { cwd: values.repo, detached: true, stdio: ['ignore', 'ignore', 'inherit'] },
);
const exited = new Promise((resolve) => child.once('exit', resolve));
const pid = child.pid!;
const names = new Map<number, string>();
/** With --row: CLOCK_MONOTONIC seconds at which each transfer phase starts and ends (mine phases in between). */
const transferSpans: Array<[number, number]> = [];
const monotonic = () => Number(process.hrtime.bigint()) / 1e9;
try {
  const rpc = new RpcClient(`http://127.0.0.1:${port}`);
  await waitUntilAnswering(rpc, child);
  await rpc.call('qa_mineBlocks', [1, false]);
  const sender = values.row ? await Sender.open(rpc, TEST_KEYS[0]) : undefined;
  let token = '';
  if (sender) {
    const deploy = await sender.signDeploy(10n ** 27n);
    await sender.send(deploy.raw);
    await sender.waitAllMined(60_000, 1);
    token = deploy.address;
    for (let i = 0; i < Number(values.warmup); i++) {
      await sender.send(await sender.signTokenTransfer(token, RECIPIENT, 1n, FIRST_TRANSFER_GAS));
      await sender.waitAllMined(60_000, 1);
    }
  }
  const perf = spawn(
    'perf',
    [
      'record',
      '-q',
      '-k',
      'CLOCK_MONOTONIC',
      '-F',
      String(freq),
      '-e',
      'cpu-clock',
      '-g',
      '-p',
      String(pid),
      '-o',
      perfFile,
    ],
    {
      stdio: 'ignore',
    },
  );
  const perfDone = new Promise((resolve) => perf.once('exit', resolve));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const calls = perCall > 0 ? Math.ceil(blocks / perCall) : Number(values.transfers);
  for (let call = 0, done = 0; call < calls; call++, done += perCall) {
    if (perCall > 0) await rpc.call('qa_mineBlocks', [Math.min(perCall, blocks - done), false]);
    if (!sender) continue;
    const from = monotonic();
    await sender.send(await sender.signTokenTransfer(token, RECIPIENT, 1n, FIRST_TRANSFER_GAS));
    await sender.waitAllMined(60_000, 1);
    transferSpans.push([from, monotonic()]);
  }
  for (const task of readdirSync(`/proc/${pid}/task`))
    names.set(Number(task), readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim());
  perf.kill('SIGINT');
  await perfDone;
} finally {
  process.kill(-pid, 'SIGKILL');
  await exited;
}

const script = execFileSync('perf', ['script', '-i', perfFile, '-F', 'tid,time,ip,sym'], {
  maxBuffer: 1 << 30,
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'ignore'],
});
rmSync(`/tmp/perf-${pid}.map`, { force: true });
rmSync(dataDir, { recursive: true, force: true });

interface Sample {
  readonly tid: number;
  /** CLOCK_MONOTONIC seconds. */
  readonly time: number;
  /** Leaf first. */
  readonly frames: string[];
}
const samples: Sample[] = [];
let current: Sample | undefined;
for (const line of script.split('\n')) {
  if (line.trim() === '') continue;
  // A sample's first line is its thread id and time (`  1234 5678.123456:`); its frames follow, each indented.
  const head = /^ *(\d+) +(\d+\.\d+): *$/.exec(line);
  if (head) {
    current = { tid: Number(head[1]), time: Number(head[2]), frames: [] };
    samples.push(current);
    continue;
  }
  const symbol = line.trim().split(' ').slice(1).join(' ');
  current?.frames.push(symbol);
}

/** A JIT frame's function name (`JS:*extend file:///…` → `extend`), else the symbol. */
const nameOf = (frame: string): string => {
  const js = /^JS:[*^~+]?(\S*)/.exec(frame);
  return js ? js[1] : frame;
};
const kindOf = (tid: number): string => {
  if (tid === pid) return 'main';
  const name = names.get(tid) ?? '?';
  // Node names V8's platform workers and libuv's pool "node" alike; LevelDB's compaction thread is created last.
  return name === 'node' ? 'other threads' : name;
};
const categoryOf = (leaf: string): string => {
  if (/compiler::|Turbofan|Maglev|Compil/.test(leaf)) return 'optimising compiler';
  if (/Scaveng|Mark|Sweep|Heap::|Evacuat|Remembered|SlotSet|Ephemeron|MemoryChunk|NewSpace|PagedSpace|GC/.test(leaf))
    return 'garbage collection';
  if (/leveldb|snappy/.test(leaf)) return 'LevelDB';
  if (/wasm-function/.test(leaf)) return 'keccak (WASM)';
  if (/^JS:|^Builtins?_/.test(leaf)) return 'JavaScript';
  if (/malloc|free|memmove|memcpy|memset|pthread|libc/.test(leaf)) return 'C library';
  if (/^[a-z_0-9.]+$/.test(leaf) && !leaf.includes('::')) return 'kernel or unnamed';
  return 'V8/Node runtime';
};
/** A phase's samples (all, or with --row the mine calls' and the transfers'), per `unit` of work. */
function report(label: string, phase: Sample[], units: number, unit: string): void {
  const per = (count: number) => ((count / freq) * 1e6) / units;
  const byThread = new Map<string, Map<string, number>>();
  const byTid = new Map<number, number>();
  for (const { tid, frames } of phase) {
    const kind = kindOf(tid);
    const rows = byThread.get(kind) ?? new Map<string, number>();
    byThread.set(kind, rows);
    const category = categoryOf(frames[0] ?? '?');
    rows.set(category, (rows.get(category) ?? 0) + 1);
    byTid.set(tid, (byTid.get(tid) ?? 0) + 1);
  }
  console.log(`${label}: ${phase.length} samples at ${freq} Hz: ${per(phase.length).toFixed(1)} µs CPU a ${unit}`);
  for (const [kind, rows] of [...byThread].sort((a, b) => sum(b[1]) - sum(a[1]))) {
    const parts = [...rows].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ${per(n).toFixed(1)}`);
    console.log(`  ${kind}: ${per(sum(rows)).toFixed(1)} µs (${parts.join(', ')})`);
  }
  const tids = [...byTid].sort((a, b) => b[1] - a[1]).slice(0, 8);
  console.log(`  by thread (tid − pid): ${tids.map(([tid, n]) => `#${tid - pid} ${per(n).toFixed(1)}`).join(', ')}`);

  const main = phase.filter((s) => s.tid === pid).map((s) => s.frames.map(nameOf));
  console.log(`  main thread, inclusive µs a ${unit}:`);
  console.log(
    `    ${NAMED.map((name) => `${name} ${per(main.filter((f) => f.includes(name)).length).toFixed(2)}`).join(', ')}`,
  );
  if (values.top) {
    // Every frame name a main-thread sample passes through, once a sample: where the time outside `--focus` goes.
    const inclusive = new Map<string, number>();
    for (const frames of main) for (const name of new Set(frames)) inclusive.set(name, (inclusive.get(name) ?? 0) + 1);
    console.log(`  main thread, top ${values.top} inclusive, µs a ${unit}:`);
    for (const [name, n] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
      console.log(`    ${per(n).toFixed(2).padStart(8)}  ${name.slice(0, 100)}`);
  }
  const callees = new Map<string, number>();
  for (const frames of main) {
    const at = frames.lastIndexOf(values.focus);
    if (at === -1) continue;
    const callee = at === 0 ? '(self)' : frames[at - 1];
    callees.set(callee, (callees.get(callee) ?? 0) + 1);
  }
  console.log(`  direct callees of ${values.focus}, µs a ${unit}:`);
  for (const [callee, n] of [...callees].sort((a, b) => b[1] - a[1]).slice(0, 20))
    console.log(`    ${per(n).toFixed(2).padStart(6)}  ${callee}`);
}

if (transferSpans.length === 0) report(`${blocks} blocks in calls of ${perCall}`, samples, blocks, 'block');
else {
  const inTransfer = (time: number) => transferSpans.some(([from, to]) => time >= from && time <= to);
  const transfers = samples.filter((s) => inTransfer(s.time));
  const mines = samples.filter((s) => !inTransfer(s.time));
  if (values.folded !== undefined)
    writeFileSync(
      values.folded,
      samples
        .map((s) => {
          const where = `${inTransfer(s.time) ? 'transfer' : 'mine'}:${kindOf(s.tid)}#${s.tid - pid}`;
          return `${where};${s.frames.map(nameOf).reverse().join(';')} 1`;
        })
        .join('\n'),
    );
  if (perCall > 0) report(`the row: mine calls (${blocks} blocks in calls of ${perCall})`, mines, blocks, 'block');
  report(`the row: ${transferSpans.length} transfers sent and mined`, transfers, transferSpans.length, 'transfer');
  // Warm-up: each tenth of the row (mine call and transfer), main thread and all threads, µs a block of the tenth.
  const tenth = Math.ceil(transferSpans.length / 10);
  const parts: string[] = [];
  for (let from = 0; from < transferSpans.length; from += tenth) {
    const start = from === 0 ? 0 : transferSpans[from - 1][1];
    const end = transferSpans[Math.min(from + tenth, transferSpans.length) - 1][1];
    const inPart = samples.filter((s) => s.time > start && s.time <= end);
    const blocksIn = Math.min(tenth, transferSpans.length - from) * (perCall + 1);
    const us = (n: number) => (((n / freq) * 1e6) / blocksIn).toFixed(0);
    const mainN = inPart.filter((s) => s.tid === pid).length;
    const compiler = inPart.filter((s) => categoryOf(s.frames[0] ?? '?') === 'optimising compiler').length;
    parts.push(`${us(mainN)}/${us(inPart.length)} (jit ${us(compiler)})`);
  }
  console.log(`the row by tenths, µs a block main/all threads: ${parts.join(' · ')}`);
}

function sum(rows: Map<string, number>): number {
  let n = 0;
  for (const v of rows.values()) n += v;
  return n;
}

/**
 * Where a spawned node's CPU goes while it builds empty blocks (qa_mineBlocks(n, false) in calls of 99, the peer
 * bench's logs row), from Linux `perf` CPU-clock samples of every thread: only time a thread ran is sampled, unlike
 * V8's `--cpu-prof`, which samples the main thread by wall clock and, on a loaded machine, charges the time it
 * waited for a core to whatever it was in (a LevelDB batch write showed ~12 µs a block of "self time" that way,
 * while the call only queues work).
 *   npx tsx bench/perf-blocks.ts [--repo DIR] [--blocks 19800] [--freq 2000] [--focus extend] [--keep FILE]
 * Needs `perf` (kernel.perf_event_paranoid ≤ 2: a user's own processes). The node runs with `--perf-basic-prof`,
 * which names JIT code in /tmp/perf-<pid>.map (removed after). Prints µs of CPU a block: by thread kind and by
 * what the sample was in (JavaScript, garbage collection, optimising compilation, LevelDB, kernel, C library),
 * then the main thread's time in named functions (inclusive) and the direct callees of `--focus`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort } from '../test/helpers/free-port.js';
import { RpcClient, waitUntilAnswering } from './compare/rpc.js';

const { values } = parseArgs({
  options: {
    repo: { type: 'string', default: fileURLToPath(new URL('../', import.meta.url)) },
    blocks: { type: 'string', default: '19800' },
    'per-call': { type: 'string', default: '99' },
    freq: { type: 'string', default: '2000' },
    focus: { type: 'string', default: 'extend' },
    keep: { type: 'string' },
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
try {
  const rpc = new RpcClient(`http://127.0.0.1:${port}`);
  await waitUntilAnswering(rpc, child);
  await rpc.call('qa_mineBlocks', [1, false]);
  const perf = spawn(
    'perf',
    ['record', '-q', '-F', String(freq), '-e', 'cpu-clock', '-g', '-p', String(pid), '-o', perfFile],
    {
      stdio: 'ignore',
    },
  );
  const perfDone = new Promise((resolve) => perf.once('exit', resolve));
  await new Promise((resolve) => setTimeout(resolve, 300));
  for (let done = 0; done < blocks; done += perCall)
    await rpc.call('qa_mineBlocks', [Math.min(perCall, blocks - done), false]);
  for (const task of readdirSync(`/proc/${pid}/task`))
    names.set(Number(task), readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim());
  perf.kill('SIGINT');
  await perfDone;
} finally {
  process.kill(-pid, 'SIGKILL');
  await exited;
}

const script = execFileSync('perf', ['script', '-i', perfFile, '-F', 'tid,ip,sym'], {
  maxBuffer: 1 << 30,
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'ignore'],
});
rmSync(`/tmp/perf-${pid}.map`, { force: true });
rmSync(dataDir, { recursive: true, force: true });

interface Sample {
  readonly tid: number;
  /** Leaf first. */
  readonly frames: string[];
}
const samples: Sample[] = [];
let current: Sample | undefined;
for (const line of script.split('\n')) {
  if (line.trim() === '') continue;
  // A sample's first line is its thread id (padded with spaces); its frames follow, each indented with a tab.
  if (/^ *\d+ *$/.test(line)) {
    current = { tid: Number(line.trim().split(/\s+/)[0]), frames: [] };
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
const perBlock = (count: number) => ((count / freq) * 1e6) / blocks;

const byThread = new Map<string, Map<string, number>>();
for (const { tid, frames } of samples) {
  const kind = kindOf(tid);
  const rows = byThread.get(kind) ?? new Map<string, number>();
  byThread.set(kind, rows);
  const category = categoryOf(frames[0] ?? '?');
  rows.set(category, (rows.get(category) ?? 0) + 1);
}
const total = samples.length;
console.log(
  `${blocks} blocks in calls of ${perCall}, ${total} samples at ${freq} Hz: ${perBlock(total).toFixed(1)} µs CPU a block`,
);
for (const [kind, rows] of [...byThread].sort((a, b) => sum(b[1]) - sum(a[1]))) {
  const parts = [...rows].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ${perBlock(n).toFixed(1)}`);
  console.log(`  ${kind}: ${perBlock(sum(rows)).toFixed(1)} µs (${parts.join(', ')})`);
}

const main = samples.filter((s) => s.tid === pid).map((s) => s.frames.map(nameOf));
console.log('main thread, inclusive µs a block:');
console.log(
  `  ${NAMED.map((name) => `${name} ${perBlock(main.filter((f) => f.includes(name)).length).toFixed(2)}`).join(', ')}`,
);
const callees = new Map<string, number>();
for (const frames of main) {
  const at = frames.lastIndexOf(values.focus);
  if (at === -1) continue;
  const callee = at === 0 ? '(self)' : frames[at - 1];
  callees.set(callee, (callees.get(callee) ?? 0) + 1);
}
console.log(`direct callees of ${values.focus}, µs a block:`);
for (const [callee, n] of [...callees].sort((a, b) => b[1] - a[1]).slice(0, 20))
  console.log(`  ${perBlock(n).toFixed(2).padStart(6)}  ${callee}`);

function sum(rows: Map<string, number>): number {
  let n = 0;
  for (const v of rows.values()) n += v;
  return n;
}

/**
 * Where the node's main thread spends its CPU on the peer bench's "eth_getLogs over 1,000 blocks (10 logs)" query,
 * from Linux `perf` CPU-clock samples of that thread only (V8's --cpu-prof samples by wall clock and, on a loaded
 * machine, charges waiting for a core to whatever was running). The row's chain is built as bench/logs-row-ab.ts
 * builds it (10,000 blocks: qa_mineBlocks(99) + one token Transfer, x100).
 *   npx tsx bench/logs-perf.ts [--repo DIR | --ab BASE,CHANGE] [--mode steady|row] [--queries 3000] [--runs 4]
 *     [--freq 4000] [--top 40]
 * steady: after 500 warm-up queries, `--queries` row queries are sampled, then as many eth_blockNumber calls (the
 *   HTTP and dispatch floor every answer pays).
 * row: the row as the peer bench runs it, on `--runs` fresh nodes: right after the build, one warm-up query and 5
 *   timed ones, sampled (samples are placed in their query by time: perf's clock is CLOCK_MONOTONIC, as hrtime);
 *   `--ab` alternates two checkouts run by run.
 * Per call: µs by category (kernel, JavaScript, GC, ...), inclusive µs of the phases named in PHASES, the top
 * inclusive and self symbols. FOLDED=<prefix> writes the samples' stacks (root first, `;`-joined) for a closer look.
 * Needs `perf` (kernel.perf_event_paranoid ≤ 2); the node runs with `--perf-basic-prof` and
 * `--interpreted-frames-native-stack`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort } from '../test/helpers/free-port.js';
import { RpcClient, waitUntilAnswering } from './compare/rpc.js';
import { buildLogsRowChain } from './logs-row-chain.js';

const { values } = parseArgs({
  options: {
    repo: { type: 'string', default: fileURLToPath(new URL('../', import.meta.url)) },
    mode: { type: 'string', default: 'steady' },
    queries: { type: 'string', default: '3000' },
    runs: { type: 'string', default: '4' },
    freq: { type: 'string', default: '4000' },
    top: { type: 'string', default: '40' },
    ab: { type: 'string' },
  },
});
const freq = Number(values.freq);

/** Phases of a query whose inclusive time is printed (JIT names without the tier mark). */
const PHASES = [
  'onStreamRead',
  'readRequest',
  'dispatch',
  'checkParams',
  'eth_getLogs',
  'logQueryOf',
  'queryLogs',
  'indexedBlocks',
  'candidates',
  'collect',
  'logsJson',
  'responseBody',
  'write',
  'writev',
  'processTicksAndRejections',
  'Builtins_CompileLazy',
  'Builtins_InterpreterEntryTrampoline',
];

type Stack = string[];
interface Sample {
  readonly time: number;
  readonly stack: Stack;
}

interface Node {
  readonly rpc: RpcClient;
  readonly pid: number;
  readonly dir: string;
  stop(): Promise<void>;
}

async function startNode(repo: string): Promise<Node> {
  const dir = mkdtempSync(join(tmpdir(), 'logs-perf-'));
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      '--perf-basic-prof',
      // Interpreted functions get a trampoline of their own, so their samples carry their names.
      '--interpreted-frames-native-stack',
      'bin/svc-node.js',
      '--http.port',
      String(port),
      '--p2p.port',
      '0',
      '--datadir',
      join(dir, 'node'),
      '--log-level',
      'warn',
    ],
    { cwd: repo, detached: true, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const rpc = new RpcClient(`http://127.0.0.1:${port}`);
  await waitUntilAnswering(rpc, child);
  return {
    rpc,
    pid: child.pid!,
    dir,
    async stop() {
      process.kill(-child.pid!, 'SIGKILL');
      await exited;
    },
  };
}

/** The row's chain; returns its query. */
async function buildRow(rpc: RpcClient): Promise<object> {
  return buildLogsRowChain(rpc);
}

/** Samples the node's main thread while `work` runs; the samples' stacks, leaf first, with their times (ms). */
async function sampled(node: Node, work: () => Promise<void>): Promise<Sample[]> {
  const file = join(node.dir, `perf-${Math.random().toString(36).slice(2)}.data`);
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
      '-t',
      String(node.pid),
      '-o',
      file,
    ],
    { stdio: 'ignore' },
  );
  const done = new Promise((resolve) => perf.once('exit', resolve));
  // perf takes a while to attach on a busy machine (300 ms missed the first query at load 20).
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await work();
  perf.kill('SIGINT');
  await done;
  const script = execFileSync('perf', ['script', '-i', file, '-F', 'tid,time,ip,sym'], {
    maxBuffer: 1 << 30,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const out: Sample[] = [];
  let current: Sample | undefined;
  for (const line of script.split('\n')) {
    if (line.trim() === '') continue;
    const head = /^ *\d+ +(\d+\.\d+):/.exec(line);
    if (head) {
      current = { time: Number(head[1]) * 1000, stack: [] };
      out.push(current);
      continue;
    }
    current?.stack.push(nameOf(line.trim().split(' ').slice(1).join(' ')));
  }
  return out;
}

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

/** A JIT frame's function name (`JS:*extend file:///…` → `extend`), else the symbol. */
function nameOf(frame: string): string {
  const js = /^JS:[*^~+]?(\S*)/.exec(frame);
  return js ? js[1]! || '(anonymous JS)' : frame;
}

function categoryOf(leaf: string, stack: Stack): string {
  if (/Scaveng|Mark|Sweep|Heap::|Evacuat|Remembered|SlotSet|Ephemeron|MemoryChunk|NewSpace|PagedSpace|GC/.test(leaf))
    return 'garbage collection';
  if (/compiler::|Turbofan|Maglev|Compil|Parse|Parser|Scanner|Bytecode/.test(leaf)) return 'compiling';
  if (stack.some((f) => /^(entry_SYSCALL|do_syscall|__x64_sys|syscall_exit|asm_|irq|ret_from)/.test(f)))
    return 'kernel';
  if (/^Builtins?_|^Builtin:/.test(leaf)) return 'V8 builtins';
  if (/malloc|free|memmove|memcpy|memset|pthread|libc/.test(leaf)) return 'C library';
  if (/::/.test(leaf)) return 'V8/Node runtime (C++)';
  if (/unknown/.test(leaf)) return 'unknown';
  return 'JavaScript';
}

let foldedTag = '';
function report(label: string, all: readonly Sample[], calls: number): number {
  const per = (n: number) => ((n / freq) * 1e6) / calls;
  console.log(`${label}: ${all.length} samples at ${freq} Hz, ${per(all.length).toFixed(1)} µs main-thread CPU a call`);
  const cats = new Map<string, number>();
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  for (const { stack } of all) {
    const leaf = stack[0] ?? '?';
    const c = categoryOf(leaf, stack);
    cats.set(c, (cats.get(c) ?? 0) + 1);
    self.set(leaf, (self.get(leaf) ?? 0) + 1);
    for (const f of new Set(stack)) incl.set(f, (incl.get(f) ?? 0) + 1);
  }
  const top = Number(values.top);
  console.log(
    `  by category: ${[...cats]
      .sort((a, b) => b[1] - a[1])
      .map(([c, n]) => `${c} ${per(n).toFixed(1)}`)
      .join(', ')}`,
  );
  console.log(
    `  phases, inclusive: ${PHASES.filter((p) => incl.has(p))
      .map((p) => `${p} ${per(incl.get(p)!).toFixed(1)}`)
      .join(', ')}`,
  );
  console.log('  inclusive µs a call, top:');
  for (const [sym, n] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`    ${per(n).toFixed(2).padStart(8)}  ${sym}`);
  console.log('  self µs a call, top:');
  for (const [sym, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`    ${per(n).toFixed(2).padStart(8)}  ${sym}`);
  if (process.env.FOLDED)
    writeFileSync(
      `${process.env.FOLDED}-${foldedTag}${label.split(' ')[0]}.folded`,
      all.map((s) => [...s.stack].reverse().join(';')).join('\n'),
    );
  return per(all.length);
}

if (values.mode === 'steady') {
  const queries = Number(values.queries);
  const node = await startNode(values.repo);
  try {
    const filter = await buildRow(node.rpc);
    for (let i = 0; i < 500; i++) await node.rpc.call('eth_getLogs', [filter]);
    for (let i = 0; i < 500; i++) await node.rpc.call('eth_blockNumber');
    const logs = await sampled(node, async () => {
      for (let i = 0; i < queries; i++) await node.rpc.call('eth_getLogs', [filter]);
    });
    const floor = await sampled(node, async () => {
      for (let i = 0; i < queries; i++) await node.rpc.call('eth_blockNumber');
    });
    const a = report('eth_getLogs (row query)', logs, queries);
    const b = report('eth_blockNumber (floor)', floor, queries);
    console.log(`getLogs - floor: ${(a - b).toFixed(1)} µs a call`);
  } finally {
    await node.stop();
    rmSync(`/tmp/perf-${node.pid}.map`, { force: true });
    rmSync(node.dir, { recursive: true, force: true });
  }
} else {
  // Alternating checkouts (A/B in one sitting) when --ab names two, comma-separated; else --repo alone.
  const repos = values.ab?.split(',') ?? [values.repo];
  const runs = Number(values.runs);
  const per = new Map(
    repos.map((repo) => [
      repo,
      { warmUp: [] as Sample[], first: [] as Sample[], timed: [] as Sample[], between: [] as Sample[], betweenMs: 0 },
    ]),
  );
  for (let r = 0; r < runs; r++) {
    for (const repo of r % 2 === 0 ? repos : [...repos].reverse()) {
      const acc = per.get(repo)!;
      const node = await startNode(repo);
      try {
        const filter = await buildRow(node.rpc);
        const marks: number[] = [];
        const samples = await sampled(node, async () => {
          for (let i = 0; i < 6; i++) {
            marks.push(nowMs());
            const logs = await node.rpc.call<unknown[]>('eth_getLogs', [filter]);
            marks.push(nowMs());
            if (logs.length !== 10) throw new Error(`${logs.length} logs`);
          }
        });
        for (const s of samples) {
          const q = marks.findIndex((m, i) => i % 2 === 0 && s.time >= m && s.time <= marks[i + 1]!);
          if (q === 0) acc.warmUp.push(s);
          else if (q === 2) acc.first.push(s);
          else if (q > 0) acc.timed.push(s);
          else if (s.time > marks[0]! && s.time < marks[marks.length - 1]!) acc.between.push(s);
        }
        for (let i = 1; i + 1 < marks.length; i += 2) acc.betweenMs += marks[i + 1]! - marks[i]!;
        const first = samples.length === 0 ? Number.NaN : samples[0]!.time - marks[0]!;
        console.log(
          `${repo} run ${r}: walls ${marks
            .filter((_, i) => i % 2 === 0)
            .map((m, i) => (marks[2 * i + 1]! - m).toFixed(2))
            .join(' ')} ms (first sample ${first.toFixed(0)} ms from the first query)`,
        );
      } finally {
        await node.stop();
        rmSync(`/tmp/perf-${node.pid}.map`, { force: true });
        rmSync(node.dir, { recursive: true, force: true });
      }
    }
  }
  for (const [repo, acc] of per) {
    console.log(`== ${repo}`);
    foldedTag = repos.length > 1 ? `${repos.indexOf(repo)}-` : '';
    report('warm-up query', acc.warmUp, runs);
    report('first timed query', acc.first, runs);
    report('other timed queries', acc.timed, runs * 4);
    console.log(
      `between the queries (the client's turn, ${(acc.betweenMs / runs).toFixed(2)} ms a run): ${(((acc.between.length / freq) * 1000) / runs).toFixed(3)} ms main-thread CPU a run`,
    );
  }
}

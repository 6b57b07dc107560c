/**
 * `npx tsx bench/sent-mined-row.ts` (a diagnostic, not part of `npm run bench`): the peer report's "200 transfers,
 * each sent and mined" row (compare/writes.ts sequentialRun) on FRESH svc-node processes, as that row runs it: the
 * ERC-20 fixture, IDLE_MS of idle time (the other peers starting in the report), 20 warm-up transfers, then RUNS runs
 * of N (the row's figure is the median of the runs), then the client-ceiling row. With REPOS=<dir>,<dir> each pair
 * starts a fresh node of every checkout in turn (order alternating between pairs), so machine load hits all alike.
 *
 * Per run it prints tx/s, the client's view of one transfer (the send's request → answer, the polls' request →
 * answer, polls per transfer, the rest: the client's own time between calls), the client process's CPU per
 * transfer, and the node's CPU per transfer by thread: main, the seal-check worker (the busiest worker thread),
 * V8's platform threads (the four started with the process: JIT and GC helpers), and the rest (libuv, other workers).
 * At the end: medians per checkout of the row's figure and of each CPU column, and the nodes' cold starts.
 *
 *   REPOS=/tmp/base,. PAIRS=3 npx tsx bench/sent-mined-row.ts
 * Knobs: REPOS (default: this checkout), PAIRS (1), N (200), RUNS (3), WARMUP (20), IDLE_MS (3000),
 * NODE_FLAGS (extra Node.js flags for every node), CEILING (1: also the ceiling row), PEERS (peer targets run in
 * each pair after the checkouts, e.g. `hardhat,anvil`: their process tree's CPU per transfer goes in the `all` column;
 * the per-thread columns are svc-node's thread kinds and mean nothing there).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { prepareFixture, RECIPIENT, type Fixture } from './compare/fixture.js';
import { makeWorkDir, startTarget, type RunningTarget } from './compare/launcher.js';
import { sleep } from './compare/rpc.js';
import { allTargets, svcNode, type Target } from './compare/targets.js';

// A checkout, optionally with environment variables for its node: `dir` or `dir|NAME=value;NAME=value`.
const repos = (process.env.REPOS ?? '.').split(',').map((r) => {
  const [dir, env] = r.split('|') as [string, string | undefined];
  return `${resolve(dir)}${env ? `|${env}` : ''}`;
});
const PAIRS = Number(process.env.PAIRS ?? 1);
const N = Number(process.env.N ?? 200);
const RUNS = Number(process.env.RUNS ?? 3);
const WARMUP = Number(process.env.WARMUP ?? 20);
const IDLE_MS = Number(process.env.IDLE_MS ?? 3000);
const CEILING = (process.env.CEILING ?? '1') === '1';
const nodeFlags = (process.env.NODE_FLAGS ?? '').split(' ').filter(Boolean);
const peers = (process.env.PEERS ?? '').split(',').filter(Boolean);
for (const id of peers) if (!allTargets.some((t) => t.id === id)) throw new Error(`PEERS: no target ${id}`);
const runs = [...repos, ...peers.map((id) => `peer:${id}`)];
const ticksMs = 10; // USER_HZ 100

function targetAt(repo: string): Target {
  if (repo.startsWith('peer:')) return allTargets.find((t) => t.id === repo.slice(5))!;
  const [dir, env] = repo.split('|') as [string, string | undefined];
  const extra = Object.fromEntries(
    (env ?? '')
      .split(';')
      .filter(Boolean)
      .map((kv) => kv.split(/=(.*)/s).slice(0, 2)),
  );
  return {
    ...svcNode,
    launch: (...a) => {
      const plan = svcNode.launch(...a);
      return { ...plan, args: [...nodeFlags, ...plan.args], cwd: dir, env: { ...plan.env, ...extra } };
    },
  };
}

interface ThreadCpu {
  readonly tid: number;
  readonly startTicks: number;
  readonly ms: number;
}
/** The process's threads, and its descendants' (a peer may run its node in a child process). */
function threads(pid: number): ThreadCpu[] {
  const out: ThreadCpu[] = [];
  for (const child of childrenOf(pid)) out.push(...threads(child));
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const f = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
      out.push({
        tid: Number(tid),
        startTicks: Number(rest[19]),
        ms: (Number(rest[11]) + Number(rest[12])) * ticksMs,
      });
    } catch {}
  }
  return out.sort((a, b) => a.tid - b.tid);
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      out.push(...readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
    } catch {}
  }
  return out;
}

/** CPU by thread kind between two snapshots: main, platform (the 4 first threads after main), seal (busiest other). */
function byKind(pid: number, before: ThreadCpu[], after: ThreadCpu[]): Record<string, number> {
  const was = new Map(before.map((t) => [t.tid, t.ms]));
  const deltas = after.map((t) => ({ ...t, d: t.ms - (was.get(t.tid) ?? 0) }));
  // Node starts, before any JavaScript: the main thread, V8's delayed-task scheduler, then its 4 platform workers.
  const platform = new Set(
    after
      .filter((t) => t.tid !== pid)
      .slice(1, 5)
      .map((t) => t.tid),
  );
  const others = deltas.filter((t) => t.tid !== pid && !platform.has(t.tid));
  const seal = others.reduce((m, t) => (t.d > (m?.d ?? -1) ? t : m), undefined as (typeof others)[0] | undefined);
  const sum = (xs: typeof deltas) => xs.reduce((s, t) => s + t.d, 0);
  return {
    main: deltas.find((t) => t.tid === pid)?.d ?? 0,
    seal: seal?.d ?? 0,
    v8: sum(deltas.filter((t) => platform.has(t.tid))),
    other: sum(others.filter((t) => t !== seal)),
    all: sum(deltas),
    mainWait: 0,
  };
}

/** The time the miner stood waiting for seal-check verdicts so far (ms), from the node's /metrics. */
async function sealCheckWaitMs(url: string): Promise<number> {
  const res = await fetch(new URL('/metrics', url)).catch(() => undefined);
  if (res === undefined || !res.ok) return 0;
  const text = await res.text();
  const m = /^svc_seal_check_waits\{figure="seconds"\} (\S+)$/m.exec(text);
  return m ? Number(m[1]) * 1000 : 0;
}

/** The main thread's time runnable but waiting for a core (ms, /proc schedstat). */
const mainWaitMs = (pid: number) =>
  Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;

/** The main thread's voluntary context switches so far (each is a sleep, so a later wake-up: epoll with nothing ready). */
const mainSleeps = (pid: number) =>
  Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/task/${pid}/status`, 'utf8'))?.[1] ?? 0);

const clientCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

interface RunFigures {
  readonly txps: number;
  readonly sendMs: number;
  readonly pollMs: number;
  readonly polls: number;
  readonly restMs: number;
  readonly clientCpuMs: number;
  readonly cpu: Record<string, number>;
}

async function row(node: RunningTarget, f: Fixture, count: number): Promise<RunFigures> {
  const s = f.sender;
  const raws: string[] = [];
  for (let i = 0; i < count; i++) raws.push(await s.signTokenTransfer(f.token, RECIPIENT, 1n));
  const first = s.nextNonce - count;
  const sealWait0 = await sealCheckWaitMs(node.url);
  const t0 = threads(node.pid);
  const w0 = mainWaitMs(node.pid);
  const z0 = mainSleeps(node.pid);
  const c0 = clientCpu();
  let sendMs = 0;
  let pollMs = 0;
  let polls = 0;
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const a = performance.now();
    await s.send(raws[i]!);
    sendMs += performance.now() - a;
    // waitMinedCount(first + i + 1, 60_000, 1), timed call by call
    for (;;) {
      const b = performance.now();
      const mined = await s.minedCount();
      pollMs += performance.now() - b;
      polls++;
      if (mined >= first + i + 1) break;
      await sleep(1);
    }
  }
  const wall = performance.now() - started;
  const c1 = clientCpu();
  const cpu = byKind(node.pid, t0, threads(node.pid));
  cpu.mainWait = mainWaitMs(node.pid) - w0;
  cpu.mainSleeps = mainSleeps(node.pid) - z0;
  cpu.minerWaitedForChecks = (await sealCheckWaitMs(node.url)) - sealWait0;
  for (const k of Object.keys(cpu)) cpu[k]! /= count;
  if (process.env.DETAIL) {
    const t1 = threads(node.pid);
    const was = new Map(t0.map((t) => [t.tid, t.ms]));
    const startOf = t1.find((t) => t.tid === node.pid)!.startTicks;
    console.log(
      `    threads (tid@start s: ms per transfer): ${t1
        .map(
          (t) =>
            `${t.tid}@${((t.startTicks - startOf) / 100).toFixed(2)}: ${((t.ms - (was.get(t.tid) ?? 0)) / count).toFixed(2)}`,
        )
        .join(', ')}`,
    );
  }
  return {
    txps: count / (wall / 1000),
    sendMs: sendMs / count,
    pollMs: pollMs / count,
    polls: polls / count,
    restMs: (wall - sendMs - pollMs) / count,
    clientCpuMs: (c1 - c0) / count,
    cpu,
  };
}

async function ceiling(f: Fixture, count: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    await f.sender.rpc.call('eth_chainId');
    await f.sender.minedCount();
  }
  return count / ((performance.now() - started) / 1000);
}

const med = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const fmt = (x: number, d = 2) => x.toFixed(d);

interface NodeResult {
  readonly repo: string;
  readonly rowTxps: number;
  readonly runs: RunFigures[];
  readonly ceilingTxps: number | undefined;
  readonly coldStartMs: number;
  readonly startCpuMs: number;
  readonly load: number;
}
const results: NodeResult[] = [];
const workDir = makeWorkDir();
console.log(`repos: ${runs.join(', ')}; N ${N}, runs ${RUNS}, warm-up ${WARMUP}, idle ${IDLE_MS} ms`);
for (let p = 0; p < PAIRS; p++) {
  const order = p % 2 ? [...runs].reverse() : runs;
  for (const repo of order) {
    const load = loadavg()[0]!;
    const node = await startTarget(targetAt(repo), workDir);
    try {
      const startCpuMs = threads(node.pid).reduce((s, t) => s + t.ms, 0);
      const f = await prepareFixture(node);
      await sleep(IDLE_MS);
      await row(node, f, WARMUP);
      const runs: RunFigures[] = [];
      for (let r = 0; r < RUNS; r++) runs.push(await row(node, f, N));
      const ceilingTxps = CEILING ? (await ceiling(f, N), med([await ceiling(f, N)])) : undefined;
      const res: NodeResult = {
        repo,
        rowTxps: med(runs.map((r) => r.txps)),
        runs,
        ceilingTxps,
        coldStartMs: node.coldStartMs ?? node.firstAnswerMs,
        startCpuMs,
        load,
      };
      results.push(res);
      console.log(
        `pair ${p} ${repo}: row ${fmt(res.rowTxps, 1)} tx/s (runs ${runs.map((r) => fmt(r.txps, 1)).join(', ')}), ` +
          `ceiling ${ceilingTxps?.toFixed(0) ?? '-'} tx/s, cold start ${res.coldStartMs.toFixed(0)} ms ` +
          `(node CPU ${startCpuMs} ms by then), load ${fmt(load)}`,
      );
      for (const [i, r] of runs.entries())
        console.log(
          `  run ${i}: per transfer send ${fmt(r.sendMs)} ms, poll ${fmt(r.pollMs)} ms (${fmt(r.polls)} polls), ` +
            `client rest ${fmt(r.restMs)} ms, client CPU ${fmt(r.clientCpuMs)} ms; node CPU ` +
            Object.entries(r.cpu)
              .map(([k, v]) => `${k} ${fmt(v)}`)
              .join(', '),
        );
    } finally {
      await node.stop();
    }
  }
}
console.log('\nmedians per checkout (over pairs; each pair = the median of its runs, CPU = mean over its runs):');
for (const repo of runs) {
  const mine = results.filter((r) => r.repo === repo);
  const cpuMean = (r: NodeResult, k: string) => r.runs.reduce((s, x) => s + x.cpu[k]!, 0) / r.runs.length;
  console.log(
    `${repo}: row ${fmt(med(mine.map((r) => r.rowTxps)), 1)} tx/s [${mine.map((r) => fmt(r.rowTxps, 1)).join(', ')}]` +
      `; node CPU per transfer ${['main', 'seal', 'v8', 'other', 'all', 'mainWait', 'mainSleeps', 'minerWaitedForChecks'].map((k) => `${k} ${fmt(med(mine.map((r) => cpuMean(r, k))))}`).join(', ')}` +
      `; send ${fmt(med(mine.map((r) => med(r.runs.map((x) => x.sendMs)))))} ms, poll ${fmt(med(mine.map((r) => med(r.runs.map((x) => x.pollMs)))))} ms` +
      `; ceiling ${mine.map((r) => r.ceilingTxps?.toFixed(0)).join(', ')}; cold start ${mine.map((r) => r.coldStartMs.toFixed(0)).join(', ')} ms`,
  );
}

/**
 * `npx tsx bench/transfer-server-time.ts` (a diagnostic, not part of `npm run bench`): the server's own time per
 * sent-and-mined ERC-20 transfer, the peer report's sequential row minus its client-ceiling row (send + mined
 * count, minus chainId + mined count), measured round by round in alternation across the nodes so machine load hits
 * all alike; and the server's CPU time per transfer (its process tree's utime + stime from /proc, minus the same for
 * the ceiling calls), which a busy machine inflates far less than wall time.
 *
 * Knobs: TARGETS (default svc-node,svc-node:durable,anvil,hardhat; `:durable` = svc-node with db.write-behind off,
 * `:base` = the svc-node of the checkout at BENCH_BASE_DIR, built, for an A/B on the same load; `:flags=--a,--b` = svc-node
 * with those Node.js flags; `:env=NAME=value` = svc-node with that environment variable, e.g. a setting),
 * N transfers per round (200), ROUNDS (5), PROFILE=<dir> runs svc-node under `node --cpu-prof` into that directory,
 * NODE_FLAGS="<flags>" adds Node.js flags to svc-node's process (e.g. `--trace-gc`; its output lands in the node's
 * log file; with `--trace-gc` each round also prints the collections its transfers caused, by kind, and with
 * `--trace-opt` the compilations and their jobs' time per transfer); THREADS=1 prints
 * svc-node's CPU per transfer by thread name (main thread, V8's workers, libuv's pool, LevelDB's compaction...);
 * WARMUP (50) transfers per node before the rounds: V8's optimising compiler runs on its worker threads for the first
 * ~3,000 transfers (the once-per-block functions get hot last), so a shorter warm-up counts JIT work in the CPU
 * column (after 1,000: ~1.5–2 ms per transfer on the workers; after 4,000: ~0.4; results/transfer-server-time.md).
 * With THREADS=1 the main thread's scheduler figures per transfer follow (/proc schedstat and status, in both loops):
 * time on a CPU, time runnable but waiting for one, and voluntary / involuntary switches, which tell a preempted
 * thread (the profile then charges the wait to where it stood, e.g. `writev`) from one spending CPU.
 * Each svc-node round also prints the time its miner stood waiting for seal-check verdicts (exec.seal-check-lag
 * reached; `svc_seal_check_waits` in /metrics): the checker's worker, not the answer path, was the bound then.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { prepareFixture, RECIPIENT, type Fixture } from './compare/fixture.js';
import { makeWorkDir, startTarget, type RunningTarget } from './compare/launcher.js';
import { processTree } from './compare/process-tree.js';
import { allTargets, type Target } from './compare/targets.js';

const ids = (process.env.TARGETS ?? 'svc-node,svc-node:durable,anvil,hardhat').split(',');
const N = Number(process.env.N ?? 200);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const workDir = makeWorkDir();
const ticks = 100; // USER_HZ
const cpuMs = (pid: number) =>
  processTree(pid).reduce((sum, p) => {
    try {
      const f = readFileSync(`/proc/${p}/stat`, 'utf8');
      const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
      return sum + ((Number(rest[11]) + Number(rest[12])) * 1000) / ticks;
    } catch {
      return sum;
    }
  }, 0);

/** Resident memory of the process tree, MiB. */
const rssMiB = (pid: number) =>
  processTree(pid).reduce((sum, p) => {
    try {
      return sum + Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0) / 1024;
    } catch {
      return sum;
    }
  }, 0);

/** utime + stime (ms) per thread name of every process of the tree (/proc/<pid>/task/<tid>/stat). */
function cpuByThread(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of processTree(pid)) {
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${p}/task`);
    } catch {}
    for (const tid of tids) {
      try {
        const f = readFileSync(`/proc/${p}/task/${tid}/stat`, 'utf8');
        const name = Number(tid) === pid ? 'main' : `${f.slice(f.indexOf('(') + 1, f.lastIndexOf(')'))}:${tid}`;
        const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
        out.set(name, (out.get(name) ?? 0) + ((Number(rest[11]) + Number(rest[12])) * 1000) / ticks);
      } catch {}
    }
  }
  return out;
}
function threadDelta(before: Map<string, number>, after: Map<string, number>, n: number): string {
  return [...after]
    .map(([k, v]) => [k, (v - (before.get(k) ?? 0)) / n] as const)
    .filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v.toFixed(2)}`)
    .join(', ');
}

/** The main thread's ns on a CPU, ns runnable waiting for one, and context switches (voluntary, involuntary). */
function mainSched(pid: number): [number, number, number, number] {
  const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').map(Number);
  const status = readFileSync(`/proc/${pid}/task/${pid}/status`, 'utf8');
  const count = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return [run!, wait!, count('voluntary_ctxt_switches'), count('nonvoluntary_ctxt_switches')];
}
function schedDelta(before: number[], after: number[], n: number): string {
  const d = after.map((v, i) => (v - before[i]!) / n);
  return (
    `on CPU ${(d[0]! / 1e6).toFixed(3)} ms, runnable waiting ${(d[1]! / 1e6).toFixed(3)} ms, ` +
    `switches ${d[2]!.toFixed(2)} voluntary / ${d[3]!.toFixed(2)} involuntary`
  );
}

function variant(id: string): Target {
  const [base, mode] = id.split(/:(.*)/s) as [string, string | undefined];
  let target = allTargets.find((t) => t.id === base)!;
  const extraEnv: Record<string, string> =
    mode === 'durable'
      ? { SVC_NODE_DB_WRITE_BEHIND: 'false' }
      : mode?.startsWith('env=')
        ? Object.fromEntries([mode.slice('env='.length).split(/=(.*)/s).slice(0, 2) as [string, string]])
        : {};
  // `svc-node:base`: the node of another checkout (BENCH_BASE_DIR, built), for an A/B on the same load.
  const baseDir = mode === 'base' ? process.env.BENCH_BASE_DIR : undefined;
  if (mode === 'base' && baseDir === undefined) throw new Error('svc-node:base needs BENCH_BASE_DIR=<checkout>');
  const prof =
    process.env.PROFILE && base === 'svc-node' ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.PROFILE}`] : [];
  if (base === 'svc-node' && process.env.NODE_FLAGS) prof.push(...process.env.NODE_FLAGS.split(' ').filter(Boolean));
  if (mode?.startsWith('flags=')) prof.push(...mode.slice('flags='.length).split(',').filter(Boolean));
  const launch = target.launch;
  target = {
    ...target,
    launch: (...a) => {
      const plan = launch(...a);
      return {
        ...plan,
        args: [...prof, ...plan.args],
        env: { ...plan.env, ...extraEnv },
        ...(baseDir !== undefined ? { cwd: baseDir } : {}),
      };
    },
  };
  return target;
}

/** The time svc-node's miner stood waiting for seal-check verdicts so far (ms), from its /metrics; undefined without. */
async function sealCheckWaitMs(url: string): Promise<number | undefined> {
  try {
    const text = await (await fetch(new URL('/metrics', url))).text();
    const m = /^svc_seal_check_waits\{figure="seconds"\} (\S+)$/m.exec(text);
    return m ? Number(m[1]) * 1000 : undefined;
  } catch {
    return undefined;
  }
}

const tracingGc = /--trace-(gc|opt|deopt)/.test(process.env.NODE_FLAGS ?? '');
const gcLogSize = (node: RunningTarget) => (tracingGc ? statSync(node.logFile).size : 0);
/** The `--trace-gc` lines the node logged since `from` (a byte offset of its log), counted by kind. */
function gcCounts(node: RunningTarget, from: number, transfers: number): string {
  if (!tracingGc || node.target.id !== 'svc-node') return '';
  const text = readFileSync(node.logFile).subarray(from).toString('utf8');
  const kinds = new Map<string, number>();
  for (const m of text.matchAll(
    / ms: (Scavenge|Mark-Compact|Minor Mark-Sweep|Mark-Sweep)|\[(completed compiling|bailout|deoptimizing)/g,
  ))
    kinds.set(m[1] ?? m[2]!, (kinds.get(m[1] ?? m[2]!) ?? 0) + 1);
  // `--trace-opt` prints each compilation's phases as "took <prepare>, <execute>, <finalize> ms"; the middle one
  // runs on V8's worker threads (wall time: a preempted worker counts its wait): a JIT still warming up competes
  // with the main thread for the cores.
  let compileMs = 0;
  for (const m of text.matchAll(/\[completed compiling .*? took ([\d.]+), ([\d.]+), ([\d.]+) ms/g))
    compileMs += Number(m[1]) + Number(m[2]) + Number(m[3]);
  const jit = compileMs > 0 ? ` (compile jobs ${(compileMs / transfers).toFixed(2)} ms per transfer)` : '';
  return `; GC/JIT during transfers: ${[...kinds].map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}${jit}`;
}

const nodes: Array<{ id: string; node: RunningTarget; f: Fixture; wall: number[]; cpu: number[] }> = [];
try {
  for (const id of ids) {
    const node = await startTarget(variant(id), workDir);
    nodes.push({ id, node, f: await prepareFixture(node), wall: [], cpu: [] });
  }
  const seq = async (f: Fixture, n: number) => {
    const s = f.sender;
    const raws: string[] = [];
    for (let i = 0; i < n; i++) raws.push(await s.signTokenTransfer(f.token, RECIPIENT, 1n));
    const first = s.nextNonce - n;
    const t = performance.now();
    for (let i = 0; i < n; i++) {
      await s.send(raws[i]!);
      await s.waitMinedCount(first + i + 1, 60_000, 1);
    }
    return (performance.now() - t) / n;
  };
  const ceil = async (f: Fixture, n: number) => {
    const t = performance.now();
    for (let i = 0; i < n; i++) {
      await f.sender.rpc.call('eth_chainId');
      await f.sender.minedCount();
    }
    return (performance.now() - t) / n;
  };
  const warmup = Number(process.env.WARMUP ?? 50);
  for (const x of nodes) {
    await seq(x.f, warmup);
    await ceil(x.f, warmup);
  }
  for (let r = 0; r < ROUNDS; r++) {
    for (const x of r % 2 ? [...nodes].reverse() : nodes) {
      const c0 = cpuMs(x.node.pid);
      const log0 = gcLogSize(x.node);
      const threads0 = process.env.THREADS && x.id.startsWith('svc-node') ? cpuByThread(x.node.pid) : undefined;
      const sched0 = threads0 && mainSched(x.node.pid);
      const wait0 = x.id.startsWith('svc-node') ? await sealCheckWaitMs(x.node.url) : undefined;
      const a = await seq(x.f, N);
      if (wait0 !== undefined) {
        const waited = ((await sealCheckWaitMs(x.node.url)) ?? 0) - wait0;
        console.log(`${x.id} block production waited for seal checks: ${(waited / N).toFixed(3)} ms per transfer`);
      }
      const sched1 = threads0 && mainSched(x.node.pid);
      if (threads0 !== undefined)
        console.log(`${x.id} CPU per transfer by thread (ms): ${threadDelta(threads0, cpuByThread(x.node.pid), N)}`);
      const c1 = cpuMs(x.node.pid);
      const gcs = gcCounts(x.node, log0, N);
      const b = await ceil(x.f, N);
      const c2 = cpuMs(x.node.pid);
      if (sched0 && sched1) {
        const sched2 = mainSched(x.node.pid);
        console.log(`${x.id} main thread per transfer: ${schedDelta(sched0, sched1, N)}`);
        console.log(`${x.id} main thread per ceiling pair: ${schedDelta(sched1, sched2, N)}`);
      }
      const cpu = (c1 - c0 - (c2 - c1)) / N;
      x.wall.push(a - b);
      x.cpu.push(cpu);
      console.log(
        `${x.id.padEnd(18)} round ${r}: transfer ${a.toFixed(3)} ms, ceiling ${b.toFixed(3)} ms, ` +
          `server ${(a - b).toFixed(3)} ms; server CPU ${cpu.toFixed(3)} ms (total ${(c2 / 1000).toFixed(1)} s ` +
          `since start, RSS ${rssMiB(x.node.pid).toFixed(0)} MiB)${gcs}`,
      );
    }
  }
  const med = (xs: number[]) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)]!;
  for (const x of nodes)
    console.log(
      `${x.id.padEnd(18)} median server time per transfer ${med(x.wall).toFixed(3)} ms ` +
        `(runs ${x.wall.map((v) => v.toFixed(2)).join(', ')}); CPU ${med(x.cpu).toFixed(3)} ms`,
    );
} finally {
  for (const x of nodes) await x.node.stop();
}

/**
 * The peer bench's "eth_getLogs over 1000 blocks (10 logs)" row as it runs (bench/compare/logs.ts): a 10,000-block
 * chain built with qa_mineBlocks(99) + one token Transfer sent and polled, ×100, then at once one warm-up query and
 * 5 timed ones (address + Transfer topic over the last 1,000 blocks), then more of the same to see the steady cost.
 *   npx tsx bench/logs-after-build.ts [--repo DIR] [--runs 1] [--blocks 10000] [--steady 40] [--profile DIR]
 * Per query: wall (ms), the node's main-thread CPU and its CPU over all threads (from /proc, 10 ms ticks: read the
 * sums, not one query). `--repo` runs another checkout's `bin/svc-node.js` (A/B in one sitting); `--profile` starts
 * the node with `--cpu-prof` and prints the seconds since its start at which the queries began (profile-summary's
 * WINDOW).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort } from '../test/helpers/free-port.js';
import { RECIPIENT } from './compare/fixture.js';
import { RpcClient, waitUntilAnswering } from './compare/rpc.js';
import { TEST_KEYS } from './compare/targets.js';
import { FIRST_TRANSFER_GAS, Sender, TRANSFER_TOPIC } from './compare/token.js';

const { values } = parseArgs({
  options: {
    blocks: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '1' },
    steady: { type: 'string', default: '40' },
    repo: { type: 'string', default: fileURLToPath(new URL('../', import.meta.url)) },
    profile: { type: 'string' },
    /** Extra node flags for the node process, space-separated (e.g. "--trace-gc"), and a file for its stdout. */
    'node-flags': { type: 'string', default: '' },
    stdout: { type: 'string' },
  },
});

function cpuMs(pid: number, task?: number): number {
  const stat = readFileSync(task === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${task}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** A thread's time on a CPU and waiting in the run queue, in ms (schedstat: nanoseconds, unlike stat's ticks). */
function sched(pid: number, task = pid): { run: number; queued: number } {
  const [run, queued] = readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ').map(Number);
  return { run: run! / 1e6, queued: queued! / 1e6 };
}

/** Times a thread blocked (voluntary context switches): each is a wake-up to wait for on a busy machine. */
function switches(pid: number, task = pid): number {
  const status = readFileSync(`/proc/${pid}/task/${task}/status`, 'utf8');
  return Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(status)![1]);
}

/** Voluntary context switches summed over the process's threads. */
function allSwitches(pid: number): number {
  let sum = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      sum += switches(pid, Number(task));
    } catch {
      // the thread ended meanwhile
    }
  }
  return sum;
}

function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = `${readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim()}#${Number(task) - pid}`;
      out.set(name, (out.get(name) ?? 0) + cpuMs(pid, Number(task)));
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

const threadDelta = (before: Map<string, number>, after: Map<string, number>) =>
  [...after]
    .map(([name, ms]) => [name, ms - (before.get(name) ?? 0)] as const)
    .filter(([, ms]) => ms > 0)
    .map(([name, ms]) => `${name} ${ms.toFixed(0)}`)
    .join(', ');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function run(index: number, dataDir: string): Promise<void> {
  const port = await freePort();
  const profileArgs = values.profile ? ['--cpu-prof', '--cpu-prof-dir', values.profile] : [];
  const child = spawn(
    process.execPath,
    [
      ...profileArgs,
      ...values['node-flags'].split(' ').filter(Boolean),
      'bin/svc-node.js',
      '--http.port',
      String(port),
      '--p2p.port',
      '0',
      '--datadir',
      dataDir,
      '--log-level',
      'warn',
    ],
    {
      cwd: values.repo,
      detached: true,
      stdio: ['ignore', values.stdout ? openSync(values.stdout, 'w') : 'ignore', 'inherit'],
    },
  );
  const startedAt = performance.now();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const rpc = new RpcClient(`http://127.0.0.1:${port}`);
    await waitUntilAnswering(rpc, child);
    const pid = child.pid!;
    const sender = await Sender.open(rpc, TEST_KEYS[0]);
    const deploy = await sender.signDeploy(10n ** 27n);
    await sender.send(deploy.raw);
    await sender.waitAllMined(60_000, 1);
    const buildStart = performance.now();
    for (let call = 0; call < Number(values.blocks) / 100; call++) {
      await rpc.call('qa_mineBlocks', [99, false]);
      await sender.send(await sender.signTokenTransfer(deploy.address, RECIPIENT, 1n, FIRST_TRANSFER_GAS));
      await sender.waitAllMined(60_000, 1);
    }
    const buildMs = performance.now() - buildStart;
    const head = BigInt(await rpc.call<string>('eth_blockNumber'));
    const filter = {
      fromBlock: `0x${(head - 999n).toString(16)}`,
      toBlock: `0x${head.toString(16)}`,
      address: deploy.address,
      topics: [TRANSFER_TOPIC],
    };
    const queryAt = (performance.now() - startedAt) / 1000;
    const query = async () => {
      const main0 = cpuMs(pid, pid);
      const all0 = cpuMs(pid);
      const waits0 = allSwitches(pid);
      const sched0 = sched(pid);
      const t = performance.now();
      const logs = await rpc.call<unknown[]>('eth_getLogs', [filter]);
      const ms = performance.now() - t;
      if (logs.length !== 10) throw new Error(`eth_getLogs: ${logs.length} logs`);
      const sched1 = sched(pid);
      return {
        ms,
        main: cpuMs(pid, pid) - main0,
        all: cpuMs(pid) - all0,
        waits: allSwitches(pid) - waits0,
        run: sched1.run - sched0.run,
        queued: sched1.queued - sched0.queued,
      };
    };
    const threads0 = threadCpu(pid);
    const row = [];
    for (let i = 0; i < 6; i++) row.push(await query());
    const threads1 = threadCpu(pid);
    const steady = [];
    const switches0 = [switches(pid), allSwitches(pid)];
    for (let i = 0; i < Number(values.steady); i++) steady.push(await query());
    const switchesPer = [switches(pid) - switches0[0]!, allSwitches(pid) - switches0[1]!].map((n) => n / steady.length);
    const threads2 = threadCpu(pid);
    // The same number of eth_blockNumber calls: the HTTP and dispatch floor that every answer pays.
    const floorMain = cpuMs(pid, pid);
    const floorAll = cpuMs(pid);
    const floorSwitches = [switches(pid), allSwitches(pid)];
    for (let i = 0; i < steady.length; i++) await rpc.call('eth_blockNumber');
    const floorSwitchesPer = [switches(pid) - floorSwitches[0]!, allSwitches(pid) - floorSwitches[1]!].map(
      (n) => n / steady.length,
    );
    const floorPer = [(cpuMs(pid, pid) - floorMain) / steady.length, (cpuMs(pid) - floorAll) / steady.length];
    const threads3 = threadCpu(pid);
    // The node's own background work with no query: what the figures above include that is not the queries'.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idle = threadDelta(threads3, threadCpu(pid));
    const sum = (xs: { main: number; all: number }[]) =>
      `main ${xs.reduce((s, x) => s + x.main, 0).toFixed(0)} / all ${xs.reduce((s, x) => s + x.all, 0).toFixed(0)} ms cpu`;
    const timed = row.slice(1);
    console.log(
      `run ${index}: build ${buildMs.toFixed(0)} ms; queries at ${queryAt.toFixed(2)} s; ` +
        `warm-up ${row[0]!.ms.toFixed(2)} ms; row (5) ${timed.map((q) => q.ms.toFixed(2)).join(' ')} median ${median(timed.map((q) => q.ms)).toFixed(2)} ms, main thread on cpu ${row.map((q) => q.run.toFixed(2)).join(' ')} / queued ${row.map((q) => q.queued.toFixed(2)).join(' ')} ms (all 6), ${sum(timed)}, waits ${row.map((q) => q.waits).join(' ')} ` +
        `[all 6: ${threadDelta(threads0, threads1)}]; steady (${steady.length}) median ${median(steady.map((q) => q.ms)).toFixed(2)} ms, ` +
        `main on cpu median ${median(steady.map((q) => q.run)).toFixed(3)} queued ${median(steady.map((q) => q.queued)).toFixed(3)} ms, per query main ${(steady.reduce((s, x) => s + x.main, 0) / steady.length).toFixed(3)} / all ${(steady.reduce((s, x) => s + x.all, 0) / steady.length).toFixed(3)} ms cpu, waits per query main ${switchesPer[0]!.toFixed(2)} / all ${switchesPer[1]!.toFixed(2)} [${threadDelta(threads1, threads2)}]; eth_blockNumber main ${floorPer[0]!.toFixed(3)} / all ${floorPer[1]!.toFixed(3)} ms cpu, waits ${floorSwitchesPer[0]!.toFixed(2)} / ${floorSwitchesPer[1]!.toFixed(2)}; idle 1 s after [${idle}]`,
    );
  } finally {
    process.kill(-child.pid!, values.profile ? 'SIGINT' : 'SIGKILL');
    await exited;
  }
}

for (let i = 0; i < Number(values.runs); i++) {
  const dataDir = mkdtempSync(join(tmpdir(), 'logs-after-build-'));
  try {
    await run(i, dataDir);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

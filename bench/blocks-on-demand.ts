/**
 * The peer bench's "build 10000 blocks (1 log per 100)" workload (bench/compare/logs.ts) against one svc-node
 * process, split by phase: the qa_mineBlocks(99, false) calls, and each token transfer's send and wait until mined.
 *   npx tsx bench/blocks-on-demand.ts [--repo DIR] [--blocks 10000] [--runs 1] [--profile DIR] [--gap 99] [--by-thread]
 *     [--warmup N]
 * `--repo` runs another checkout's `bin/svc-node.js` (A/B in one sitting); `--profile` starts the node with
 * `--cpu-prof` into DIR (read it with bench/profile-summary.ts). Prints one line per run: wall, blocks/s, the
 * phases' totals and the node process's CPU time, and the main thread's wait for a core (run-queue time) per phase.
 * Every run starts a FRESH node: its 100 transfers are all in the cold-JIT regime (the first ~800 transfers of a node
 * cost ~2x the later ones, main thread and seal-check worker alike), while the peer report builds its chain on the
 * node that has just run the writes section (620 transfers sent and mined, thousands sealed in bursts). `--warmup N`
 * sends N transfers first, unmeasured (600: past the cold regime), to measure the row as the full report runs it;
 * `--gap 0` the same transfers without the empty blocks (the transfer-after-a-transfer baseline of the same client).
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
import { FIRST_TRANSFER_GAS, Sender } from './compare/token.js';

const { values } = parseArgs({
  options: {
    blocks: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '1' },
    repo: { type: 'string', default: fileURLToPath(new URL('../', import.meta.url)) },
    profile: { type: 'string' },
    /** A file for the node's stdout (what --trace-gc and the like print). */
    stdout: { type: 'string' },
    /** Extra svc-node arguments, space-separated (e.g. "--db.write-buffer-size 33554432"). */
    'node-args': { type: 'string', default: '' },
    /** Extra node flags for the node process, space-separated (e.g. "--single-threaded-gc"). */
    'node-flags': { type: 'string', default: '' },
    /** Per-thread CPU of each phase (mine calls, transfers): reads every thread's /proc stat at each boundary. */
    'by-thread': { type: 'boolean', default: false },
    /** Empty blocks per transfer (99 as the peer bench; 0: the transfers alone, the one-transaction blocks' cost). */
    gap: { type: 'string', default: '99' },
    /** Transfers sent and mined one after another before the row (not measured): a node past its cold JIT. */
    warmup: { type: 'string', default: '0' },
  },
});
const blocks = Number(values.blocks);
const gap = Number(values.gap);
const LOG_EVERY = gap + 1;

/** CPU time (user + system) of a process, or of one thread with `task` (the main thread's id is the pid). */
function processCpuMs(pid: number, task?: number): number {
  const stat = readFileSync(task === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${task}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** CPU ms per thread name (threads of one name summed): where a phase's CPU went besides the main thread. */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = `${readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim()}#${Number(task) - pid}`;
      const ms = processCpuMs(pid, Number(task));
      out.set(name, (out.get(name) ?? 0) + ms);
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

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
      ...values['node-args'].split(' ').filter(Boolean),
    ],
    {
      cwd: values.repo,
      detached: true,
      stdio: ['ignore', values.stdout ? openSync(values.stdout, 'w') : 'ignore', 'inherit'],
    },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const rpc = new RpcClient(`http://127.0.0.1:${port}`);
    await waitUntilAnswering(rpc, child);
    const sender = await Sender.open(rpc, TEST_KEYS[0]);
    const deploy = await sender.signDeploy(10n ** 27n);
    await sender.send(deploy.raw);
    await sender.waitAllMined(60_000, 1);
    for (let i = 0; i < Number(values.warmup); i++) {
      await sender.send(await sender.signTokenTransfer(deploy.address, RECIPIENT, 1n, FIRST_TRANSFER_GAS));
      await sender.waitAllMined(60_000, 1);
    }
    let mineMs = 0;
    let sendMs = 0;
    let waitMs = 0;
    let signMs = 0;
    const pid = child.pid!;
    // Node CPU per phase, main thread and all threads: what each phase costs whatever the machine's load.
    // The main thread's run-queue wait (schedstat's second field, ns): how long it was runnable without a core.
    const mainWaitMs = () => Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
    const cpuOf = () => [processCpuMs(pid, pid), processCpuMs(pid), mainWaitMs()] as const;
    const phaseCpu = { mine: [0, 0, 0], transfer: [0, 0, 0] };
    const add = (into: number[], from: readonly number[]) => {
      const now = cpuOf();
      for (let i = 0; i < into.length; i++) into[i]! += now[i]! - from[i]!;
      return now;
    };
    const cpu = processCpuMs(pid);
    const threadsBefore = threadCpu(pid);
    // Per thread and phase (--by-thread): which thread's CPU each phase's all-threads figure holds.
    const phaseThreads = { mine: new Map<string, number>(), transfer: new Map<string, number>() };
    let threadMark = threadsBefore;
    const addThreads = (into: Map<string, number>) => {
      if (!values['by-thread']) return;
      const now = threadCpu(pid);
      for (const [name, ms] of now) into.set(name, (into.get(name) ?? 0) + ms - (threadMark.get(name) ?? 0));
      threadMark = now;
    };
    const started = performance.now();
    const calls = blocks / 100;
    for (let call = 0; call < calls; call++) {
      let c = cpuOf();
      let t = performance.now();
      if (gap > 0) await rpc.call('qa_mineBlocks', [gap, false]);
      mineMs += performance.now() - t;
      c = add(phaseCpu.mine, c);
      addThreads(phaseThreads.mine);
      t = performance.now();
      const raw = await sender.signTokenTransfer(deploy.address, RECIPIENT, 1n, FIRST_TRANSFER_GAS);
      signMs += performance.now() - t;
      t = performance.now();
      await sender.send(raw);
      sendMs += performance.now() - t;
      t = performance.now();
      await sender.waitAllMined(60_000, 1);
      waitMs += performance.now() - t;
      add(phaseCpu.transfer, c);
      addThreads(phaseThreads.transfer);
    }
    const wall = performance.now() - started;
    // eth_getLogs over the last 1,000 blocks (10 logs), as the peer bench's row after the build: median of 61 and the main thread's CPU per query.
    const head = BigInt(await rpc.call<string>('eth_blockNumber'));
    const filter = {
      fromBlock: `0x${(head - 999n).toString(16)}`,
      toBlock: `0x${head.toString(16)}`,
      address: deploy.address,
    };
    const logTimes: number[] = [];
    let logsCpu = 0;
    // Over fewer than 1,000 blocks of the row (--gap 0, a short --blocks) the query's count would not be the row's: no
    // getLogs figure.
    for (let i = 0; i < (gap > 0 && calls * LOG_EVERY >= 1000 ? 62 : 0); i++) {
      if (i === 1) logsCpu = processCpuMs(pid, pid);
      const t = performance.now();
      const logs = await rpc.call<unknown[]>('eth_getLogs', [filter]);
      if (i > 0) logTimes.push(performance.now() - t);
      if (logs.length !== Math.min(10, calls)) throw new Error(`eth_getLogs: ${logs.length} logs`);
    }
    logsCpu = logTimes.length ? (processCpuMs(pid, pid) - logsCpu) / logTimes.length : 0;
    const logsMs = logTimes.sort((a, b) => a - b)[30] ?? 0;
    const cpuMs = processCpuMs(child.pid!) - cpu;
    const threads = [...threadCpu(pid)]
      .map(([name, ms]) => [name, ms - (threadsBefore.get(name) ?? 0)] as const)
      .filter(([, ms]) => ms > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([name, ms]) => `${name} ${ms.toFixed(0)}`)
      .join(', ');
    const per = (ms: number) => `${ms.toFixed(0)} ms (${((ms * 1000) / calls).toFixed(0)} µs/call)`;
    const made = calls * LOG_EVERY;
    console.log(
      `run ${index}: ${made} blocks in ${wall.toFixed(0)} ms (${Math.round((made * 1000) / wall)} blocks/s); ` +
        `mine ${per(mineMs)}, send ${per(sendMs)}, wait ${per(waitMs)}, sign ${signMs.toFixed(0)} ms; ` +
        `getLogs(1k) ${logsMs.toFixed(2)} ms (main thread ${logsCpu.toFixed(2)} ms cpu); node cpu ${cpuMs.toFixed(0)} ms; per call main/all threads: mine ${phaseCpu.mine
          .slice(0, 2)
          .map((x) => (x / calls).toFixed(2))
          .join('/')} ms, ` +
        `transfer ${phaseCpu.transfer
          .slice(0, 2)
          .map((x) => (x / calls).toFixed(2))
          .join('/')} ms; ` +
        `main thread's wait for a core per call: mine ${(phaseCpu.mine[2]! / calls).toFixed(2)} ms, transfer ${(phaseCpu.transfer[2]! / calls).toFixed(2)} ms; threads (ms): ${threads}`,
    );
    if (values['by-thread']) {
      for (const [phase, map] of Object.entries(phaseThreads)) {
        const list = [...map]
          .filter(([, ms]) => ms > 0)
          .sort((a, b) => b[1] - a[1])
          .map(([name, ms]) => `${name} ${ms.toFixed(0)}`)
          .join(', ');
        console.log(`  ${phase} phase, threads (ms): ${list}`);
      }
    }
  } finally {
    // SIGINT lets a profiled node write its profile before it exits.
    process.kill(-child.pid!, values.profile ? 'SIGINT' : 'SIGKILL');
    await exited;
  }
}

for (let i = 0; i < Number(values.runs); i++) {
  const dataDir = mkdtempSync(join(tmpdir(), 'blocks-on-demand-'));
  try {
    await run(i, dataDir);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

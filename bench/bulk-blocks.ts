/**
 * Building empty blocks in bulk on an instant-seal dev chain (what qa_mineBlocks(n, false) runs), blocks per second.
 *   npx tsx bench/bulk-blocks.ts [--blocks 10000] [--runs 3] [--per-call N] in this process: engine.miner.mineBlocks
 *   npx tsx bench/bulk-blocks.ts --rpc [--repo DIR] [--blocks 10000]      qa_mineBlocks over HTTP on a spawned node
 * `--rpc` spawns `node bin/svc-node.js` of `--repo` (default this checkout; another checkout measures another
 * version) in its own process group with an empty datadir, and kills the group after. Prints one line per run.
 * `--per-call N` makes the blocks in calls of N (the peer bench's logs row: 99 a call), one call per turn.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ChainEngine } from '../src/chain/engine/engine.js';
import { freePort } from '../test/helpers/free-port.js';
import { RpcClient, waitUntilAnswering } from './compare/rpc.js';
import { startHeapSampling } from './heap-sampling.js';

const { values } = parseArgs({
  options: {
    blocks: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '3' },
    rpc: { type: 'boolean', default: false },
    'per-call': { type: 'string' },
    /** In process: a sampling heap profile of the timed blocks into this file, its top allocation sites printed. */
    heap: { type: 'string' },
    /** --rpc: node flags for the node process, space-separated (e.g. "--single-threaded-gc"). */
    'node-flags': { type: 'string', default: '' },
    /** --rpc: extra svc-node settings, space-separated (e.g. "--db.write-buffer-size 33554432"). */
    'node-args': { type: 'string', default: '' },
    repo: { type: 'string', default: fileURLToPath(new URL('../', import.meta.url)) },
  },
});
const blocks = Number(values.blocks);
const runs = Number(values.runs);
const perCall = values['per-call'] === undefined ? blocks : Number(values['per-call']);
const line = (run: number, wall: number, extra = '') =>
  console.log(
    `run ${run}: ${blocks} blocks in ${wall.toFixed(0)} ms wall (${Math.round((blocks * 1000) / wall)} blocks/s)${extra}`,
  );

async function inProcess(run: number, dataDir: string): Promise<void> {
  const engine = await ChainEngine.open({ dataDir, network: 'dev', seal: 'instant' });
  try {
    await engine.miner.mineBlocks(1, { withTransactions: false });
    const sampling =
      values.heap === undefined ? undefined : await startHeapSampling(1024, process.env.SURVIVORS === '1');
    const cpu = process.cpuUsage();
    const mainCpu = processCpuMs(process.pid, process.pid);
    const t = performance.now();
    for (let done = 0; done < blocks; done += perCall)
      await engine.miner.mineBlocks(Math.min(perCall, blocks - done), { withTransactions: false, collect: false });
    const wall = performance.now() - t;
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    const mainMs = processCpuMs(process.pid, process.pid) - mainCpu;
    const head = engine.chain.getHead().header.number;
    if (head !== BigInt(blocks + 1)) throw new Error(`head ${head}, expected ${blocks + 1}`);
    line(
      run,
      wall,
      `, ${cpuMs.toFixed(0)} ms cpu (${Math.round((blocks * 1000) / cpuMs)} blocks/s, ` +
        `${((cpuMs * 1000) / blocks).toFixed(1)} µs a block; main thread ${((mainMs * 1000) / blocks).toFixed(1)} µs)`,
    );
    if (sampling !== undefined) {
      const { totalBytes, sites } = await sampling.stop(values.heap!, 40);
      console.log(
        `allocated ~${((totalBytes / blocks) | 0).toLocaleString()} B a block (sampled); top sites, B a block:`,
      );
      for (const { site, bytes } of sites) console.log(`${((bytes / blocks) | 0).toString().padStart(8)}  ${site}`);
    }
  } finally {
    await engine.close();
  }
}

/** User + system CPU time of a process (all its threads), or of one thread with `task`, from /proc (Linux). */
function processCpuMs(pid: number, task?: number): number {
  const stat = readFileSync(task === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${task}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

/** CPU ms per thread name (threads of one name summed): the main thread ("node#0"), V8's, LevelDB's, libuv's. */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const comm = readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim();
      const name = Number(task) === pid ? 'main' : `${comm}#${Number(task) - pid}`;
      out.set(name, (out.get(name) ?? 0) + processCpuMs(pid, Number(task)));
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

async function overRpc(run: number, dataDir: string): Promise<void> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      ...values['node-flags'].split(' ').filter(Boolean),
      'bin/svc-node.js',
      '--http.port',
      String(port),
      '--no-p2p',
      '--datadir',
      dataDir,
      '--log-level',
      'warn',
      ...values['node-args'].split(' ').filter(Boolean),
    ],
    {
      cwd: values.repo,
      detached: true,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const rpc = new RpcClient(`http://127.0.0.1:${port}`);
    await waitUntilAnswering(rpc, child);
    await rpc.call('qa_mineBlocks', [1, false]);
    const cpu = processCpuMs(child.pid!);
    const threadsBefore = threadCpu(child.pid!);
    const t = performance.now();
    for (let done = 0; done < blocks; done += perCall)
      await rpc.call('qa_mineBlocks', [Math.min(perCall, blocks - done), false]);
    const wall = performance.now() - t;
    const cpuMs = processCpuMs(child.pid!) - cpu;
    const threads = [...threadCpu(child.pid!)]
      .map(([name, ms]) => [name, ms - (threadsBefore.get(name) ?? 0)] as const)
      .filter(([, ms]) => ms > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([name, ms]) => `${name} ${ms.toFixed(0)}`)
      .join(', ');
    const head = Number(BigInt(await rpc.call<string>('eth_blockNumber')));
    if (head !== blocks + 1) throw new Error(`head ${head}, expected ${blocks + 1}`);
    // The node's own CPU time (all its threads) is steadier than wall time on a shared machine.
    line(
      run,
      wall,
      ` over JSON-RPC, node process ${cpuMs.toFixed(0)} ms cpu (${Math.round((blocks * 1000) / cpuMs)} blocks/s, ` +
        `${((cpuMs * 1000) / blocks).toFixed(1)} µs a block); threads (ms): ${threads}`,
    );
  } finally {
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
  }
}

for (let run = 0; run < runs; run++) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bulk-blocks-'));
  try {
    await (values.rpc ? overRpc(run, dataDir) : inProcess(run, dataDir));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

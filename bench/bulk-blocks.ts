/**
 * Building empty blocks in bulk on an instant-seal dev chain (what qa_mineBlocks(n, false) runs), blocks per second.
 *   npx tsx bench/bulk-blocks.ts [--blocks 10000] [--runs 3]              in this process: engine.miner.mineBlocks
 *   npx tsx bench/bulk-blocks.ts --rpc [--repo DIR] [--blocks 10000]      qa_mineBlocks over HTTP on a spawned node
 * `--rpc` spawns `node bin/svc-node.js` of `--repo` (default this checkout; another checkout measures another
 * version) in its own process group with an empty datadir, and kills the group after. Prints one line per run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ChainEngine } from '../src/chain/engine/engine.js';
import { freePort } from '../test/helpers/free-port.js';
import { RpcClient, waitUntilAnswering } from './compare/rpc.js';

const { values } = parseArgs({
  options: {
    blocks: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '3' },
    rpc: { type: 'boolean', default: false },
    repo: { type: 'string', default: fileURLToPath(new URL('../', import.meta.url)) },
  },
});
const blocks = Number(values.blocks);
const runs = Number(values.runs);
const line = (run: number, wall: number, extra = '') =>
  console.log(
    `run ${run}: ${blocks} blocks in ${wall.toFixed(0)} ms wall (${Math.round((blocks * 1000) / wall)} blocks/s)${extra}`,
  );

async function inProcess(run: number, dataDir: string): Promise<void> {
  const engine = await ChainEngine.open({ dataDir, network: 'dev', seal: 'instant' });
  try {
    await engine.miner.mineBlocks(1, { withTransactions: false });
    const cpu = process.cpuUsage();
    const t = performance.now();
    await engine.miner.mineBlocks(blocks, { withTransactions: false });
    const wall = performance.now() - t;
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    const head = engine.chain.getHead().header.number;
    if (head !== BigInt(blocks + 1)) throw new Error(`head ${head}, expected ${blocks + 1}`);
    line(run, wall, `, ${cpuMs.toFixed(0)} ms cpu (${Math.round((blocks * 1000) / cpuMs)} blocks/s)`);
  } finally {
    await engine.close();
  }
}

/** User + system CPU time of a process (all its threads), from /proc (Linux). */
function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

async function overRpc(run: number, dataDir: string): Promise<void> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['bin/svc-node.js', '--http.port', String(port), '--no-p2p', '--datadir', dataDir, '--log-level', 'warn'],
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
    const t = performance.now();
    await rpc.call('qa_mineBlocks', [blocks, false]);
    const wall = performance.now() - t;
    const cpuMs = processCpuMs(child.pid!) - cpu;
    const head = Number(BigInt(await rpc.call<string>('eth_blockNumber')));
    if (head !== blocks + 1) throw new Error(`head ${head}, expected ${blocks + 1}`);
    // The node's own CPU time (all its threads) is steadier than wall time on a shared machine.
    line(
      run,
      wall,
      ` over JSON-RPC, node process ${cpuMs.toFixed(0)} ms cpu (${Math.round((blocks * 1000) / cpuMs)} blocks/s)`,
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

/**
 * A/B of the peer bench's "eth_getLogs over 1000 blocks" row: fresh nodes of two checkouts, alternating; each builds
 * the row's chain (qa_mineBlocks(99) + one token Transfer, x100), then one warm-up and 5 timed queries, as
 * bench/compare/logs.ts does. Per query: wall and the main thread's time on a CPU and in the run queue (schedstat,
 * ns). Wall is the machine's; the main thread's CPU is the figure to compare on a shared machine.
 *   npx tsx bench/logs-row-ab.ts <base checkout> <change checkout> [runs=6]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/helpers/free-port.js';
import { RpcClient, waitUntilAnswering } from './compare/rpc.js';
import { buildLogsRowChain } from './logs-row-chain.js';
const [base, change, runsArg] = process.argv.slice(2);
const sched = (pid: number) =>
  readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8')
    .split(' ')
    .map((x) => Number(x) / 1e6);
async function row(repo: string) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'ab-logs-'));
  const child = spawn(
    process.execPath,
    ['bin/svc-node.js', '--http.port', String(port), '--p2p.port', '0', '--datadir', dir, '--log-level', 'warn'],
    { cwd: repo, detached: true, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const pid = child.pid!;
  try {
    const rpc = new RpcClient(`http://127.0.0.1:${port}`);
    await waitUntilAnswering(rpc, child);
    const filter = await buildLogsRowChain(rpc);
    const out = [];
    for (let i = 0; i < 6; i++) {
      const s0 = sched(pid);
      const t = performance.now();
      const logs = await rpc.call<unknown[]>('eth_getLogs', [filter]);
      const wall = performance.now() - t;
      const s1 = sched(pid);
      if (logs.length !== 10) throw new Error('logs');
      out.push({ wall, cpu: s1[0]! - s0[0]!, queued: s1[1]! - s0[1]! });
    }
    return out;
  } finally {
    process.kill(-pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}
const med = (x: number[]) => [...x].sort((a, b) => a - b)[Math.floor(x.length / 2)]!;
const res: Record<string, { wall: number; cpu: number; queued: number }[][]> = { [base!]: [], [change!]: [] };
for (let r = 0; r < Number(runsArg ?? 4); r++) {
  for (const repo of r % 2 === 0 ? [base!, change!] : [change!, base!]) {
    const q = await row(repo);
    res[repo]!.push(q);
    const timed = q.slice(1);
    console.log(
      `${repo} run ${r}: warm-up cpu ${q[0]!.cpu.toFixed(2)}; timed cpu ${timed.map((x) => x.cpu.toFixed(2)).join(' ')} (sum ${timed.reduce((s, x) => s + x.cpu, 0).toFixed(2)}), wall ${timed.map((x) => x.wall.toFixed(2)).join(' ')} median ${med(timed.map((x) => x.wall)).toFixed(2)}, queued ${timed.reduce((s, x) => s + x.queued, 0).toFixed(2)}`,
    );
  }
}
for (const [repo, runs] of Object.entries(res)) {
  const sums = runs.map((q) => q.slice(1).reduce((s, x) => s + x.cpu, 0) / 5);
  const medWall = runs.map((q) => med(q.slice(1).map((x) => x.wall)));
  console.log(
    `${repo}: timed-query main cpu (mean of 5) per run ${sums.map((x) => x.toFixed(2)).join(' ')}, median ${med(sums).toFixed(2)} ms; row median wall per run ${medWall.map((x) => x.toFixed(2)).join(' ')}, median ${med(medWall).toFixed(2)}`,
  );
}

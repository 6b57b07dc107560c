/**
 * A/B of eth_getLogs' steady cost: nodes of two checkouts up at once, the peer row's chain built on each (as
 * bench/logs-row-ab.ts), then rounds alternating between them of 100 row queries and 100 eth_blockNumber (the HTTP
 * and dispatch floor). Per round: the main thread's CPU per request (schedstat); medians, and the paired ratio.
 *   npx tsx bench/logs-steady-ab.ts <base checkout> <change checkout> [rounds=20]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/helpers/free-port.js';
import { RpcClient, waitUntilAnswering } from './compare/rpc.js';
import { buildLogsRowChain } from './logs-row-chain.js';
const [baseRepo, changeRepo, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 20);
const runMs = (pid: number) => Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
async function start(repo: string) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'ab-logs-'));
  const child = spawn(
    process.execPath,
    ['bin/svc-node.js', '--http.port', String(port), '--p2p.port', '0', '--datadir', dir, '--log-level', 'warn'],
    { cwd: repo, detached: true, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const rpc = new RpcClient(`http://127.0.0.1:${port}`);
  await waitUntilAnswering(rpc, child);
  const filter = await buildLogsRowChain(rpc);
  return {
    repo,
    rpc,
    pid: child.pid!,
    filter,
    dir,
    child,
    logs: [] as number[],
    bn: [] as number[],
    wall: [] as number[],
  };
}
const nodes = [await start(baseRepo!), await start(changeRepo!)];
try {
  // Warm: the first queries read LevelDB and compile (bench/logs-row-ab.ts measures those).
  for (const n of nodes) for (let i = 0; i < 200; i++) await n.rpc.call('eth_getLogs', [n.filter]);
  for (let r = 0; r < rounds; r++) {
    for (const n of r % 2 === 0 ? nodes : [...nodes].reverse()) {
      let c = runMs(n.pid);
      const t = performance.now();
      for (let i = 0; i < 100; i++) await n.rpc.call('eth_getLogs', [n.filter]);
      n.wall.push((performance.now() - t) / 100);
      n.logs.push((runMs(n.pid) - c) / 100);
      c = runMs(n.pid);
      for (let i = 0; i < 100; i++) await n.rpc.call('eth_blockNumber');
      n.bn.push((runMs(n.pid) - c) / 100);
    }
  }
  const med = (x: number[]) => [...x].sort((a, b) => a - b)[Math.floor(x.length / 2)]!;
  for (const n of nodes)
    console.log(
      `${n.repo}: getLogs main cpu median ${med(n.logs).toFixed(3)} ms/query (wall ${med(n.wall).toFixed(3)}); eth_blockNumber ${med(n.bn).toFixed(3)}; getLogs - blockNumber per round median ${med(n.logs.map((x, i) => x - n.bn[i]!)).toFixed(3)}`,
    );
  console.log(
    `paired ratio change/base of getLogs cpu per round, median: ${med(nodes[1]!.logs.map((x, i) => x / nodes[0]!.logs[i]!)).toFixed(3)}`,
  );
} finally {
  for (const n of nodes) {
    process.kill(-n.pid, 'SIGKILL');
    rmSync(n.dir, { recursive: true, force: true });
  }
}

/**
 * Where an eth_call's CPU goes with execution workers and without: two dev nodes (`--exec.workers 1` and `0`), the
 * peer comparison's ERC-20 balanceOf at `latest`, the same number of calls at a fixed concurrency, and each node's
 * CPU read from /proc per thread (Linux): the main thread's µs per call (what HTTP, JSON and blocks have left) and the
 * whole process's, plus calls per second. CPU per call does not depend on what else loads the machine, req/s does.
 *   npx tsx bench/call-workers-cpu.ts [--calls 4000] [--concurrency 16]
 */
import { readFileSync, readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Interface } from 'ethers';
import { DEV_ACCOUNTS } from '../src/chain/networks/devAccounts.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/helpers/free-port.js';
import { receiptOf } from '../test/helpers/receipt-of.js';
import { call } from '../test/helpers/rpc.js';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '4000' }, concurrency: { type: 'string', default: '16' } },
});
const calls = Number(values.calls);
const concurrency = Number(values.concurrency);
const artifact = JSON.parse(readFileSync(new URL('./contracts/BenchToken.json', import.meta.url), 'utf8')) as {
  abi: string[];
  bytecode: string;
};
const token = new Interface(artifact.abi);
const from = DEV_ACCOUNTS[0]!.address;
const TICK_US = 1e6 / 100; // USER_HZ

/** utime + stime of a thread (or of the whole process: `task` undefined), in µs. */
function cpuUs(pid: number, task?: number): number {
  const path = task === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${task}/stat`;
  const fields = readFileSync(path, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_US;
}

interface Node {
  readonly url: string;
  readonly child: ChildProcess;
}

async function measure(node: Node, label: string): Promise<void> {
  const rpc = (method: string, params: unknown[]) => call(node.url, method, params);
  const data = artifact.bytecode + token.encodeDeploy([10n ** 27n]).slice(2);
  const receipt = await receiptOf(rpc, await rpc('eth_sendTransaction', [{ from, data, gas: '0x300000' }]));
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'eth_call',
    params: [{ to: receipt.contractAddress, data: token.encodeFunctionData('balanceOf', [from]) }, 'latest'],
  });
  const post = () =>
    fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((r) => r.text());
  const run = async (n: number) => {
    let left = n;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (left-- > 0) await post();
      }),
    );
  };
  await run(2000); // warm-up: the worker starts and its reads fill
  const pid = node.child.pid!;
  const [main0, all0, t0] = [cpuUs(pid, pid), cpuUs(pid), performance.now()];
  await run(calls);
  const [main1, all1, t1] = [cpuUs(pid, pid), cpuUs(pid), performance.now()];
  const threads = readdirSync(`/proc/${pid}/task`).length;
  console.log(
    `${label}: ${Math.round((calls * 1000) / (t1 - t0))} req/s; main thread ${Math.round((main1 - main0) / calls)} µs/call, ` +
      `process ${Math.round((all1 - all0) / calls)} µs/call (${threads} threads)`,
  );
}

/** The node as the peer comparison starts it (bench/compare/targets.ts): bin/svc-node.js, warn level, no NODE_ENV. */
async function startNode(workers: string): Promise<Node & { stop(): Promise<void> }> {
  const port = await freePort();
  const datadir = mkdtempSync(join(tmpdir(), 'call-workers-cpu-'));
  const { NODE_ENV: _, ...env } = process.env;
  const args = [
    'bin/svc-node.js',
    '--http.port',
    String(port),
    '--no-p2p',
    '--datadir',
    datadir,
    '--log-level',
    'warn',
  ];
  const child = spawn(
    process.execPath,
    [
      ...(process.env.PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.PROF_DIR] : []),
      ...args,
      '--exec.workers',
      workers,
    ],
    { env, stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; ; i++) {
    try {
      await call(url, 'eth_blockNumber', [], 1000);
      break;
    } catch (err) {
      if (i > 600) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    child,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(datadir, { recursive: true, force: true });
    },
  };
}

for (const workers of (process.env.WORKERS ?? '1,0,1,0').split(',')) {
  const node = await startNode(workers);
  try {
    await measure(node, `exec.workers ${workers}, ${calls} calls ×${concurrency}`);
  } finally {
    await node.stop();
  }
}

/**
 * `npx tsx bench/trace-cpu-ab.ts <checkout B> [seconds=30] [kinds=callTracer,struct logger,eth_chainId; also eth_blockNumber]`: the server
 * CPU per request of two checkouts side by side: this one (A) and B, each a node of its own answering bench/trace.ts's
 * countdown transaction's traces one request at a time, taking turns every 100 requests so the machine's load falls
 * on both alike (separate runs on a shared machine differ by more than the changes measured). CPU and minor page
 * faults per request are the node's (all threads, from /proc); the client is this process for both. Each node runs as
 * bench/trace.ts runs it, from its bundle (`bin/svc-node.js`, which brings dist/ and the bundle up to date first);
 * FROM_SOURCES=1 runs src/main.ts through tsx instead.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/helpers/free-port.js';
import { call } from '../test/helpers/rpc.js';
import { countdownRuntime, deployCode } from '../test/trace/evm-asm.js';
import { contractAt, sendScenario } from '../test/trace/scenario.js';

const [dirB, secondsArg, kindsArg] = process.argv.slice(2);
if (dirB === undefined) throw new Error('usage: trace-cpu-ab.ts <checkout B> [seconds] [kinds]');
const seconds = Number(secondsArg ?? 30);
const wanted = (kindsArg ?? 'callTracer,struct logger,eth_chainId').split(',');
const { NODE_ENV: _dropped, ...env } = process.env;

interface Node {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  readonly stop: () => Promise<void>;
  hash?: string;
}

async function startNode(name: string, dir: string): Promise<Node> {
  const port = await freePort();
  const datadir = mkdtempSync(join(tmpdir(), 'trace-cpu-ab-'));
  const entry = process.env.FROM_SOURCES === '1' ? ['--import', 'tsx', 'src/main.ts'] : ['bin/svc-node.js'];
  const args = [...entry, '--http.port', String(port), '--http.addr', '127.0.0.1'];
  const child = spawn(process.execPath, [...args, '--no-p2p', '--datadir', datadir], {
    cwd: dir,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; ; i++) {
    try {
      await call(url, 'eth_chainId', [], 1000);
      break;
    } catch {
      if (i > 600) throw new Error(`${name}: no answer`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const stop = async () => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    rmSync(datadir, { recursive: true, force: true });
  };
  return { name, url, pid: child.pid!, stop };
}

/** CPU ms of the process (all threads): user and system, and its minor page faults, from /proc. */
function stat(pid: number): [user: number, system: number, faults: number] {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return [Number(fields[11]) * 10, Number(fields[12]) * 10, Number(fields[7])];
}

const nodes: Node[] = [];
try {
  nodes.push(await startNode('A', fileURLToPath(new URL('../', import.meta.url))), await startNode('B', dirB));
  for (const node of nodes) {
    const [, hash] = await sendScenario(node.url, [
      { name: 'deploy countdown', data: deployCode(countdownRuntime), gas: 300_000 },
      { name: 'count down', to: contractAt(0), data: `0x${(142).toString(16).padStart(64, '0')}`, gas: 1_000_000 },
    ]);
    node.hash = hash;
  }
  const kinds: [string, string, (n: Node) => unknown[]][] = [
    ['callTracer', 'debug_traceTransaction', (n) => [n.hash, { tracer: 'callTracer' }]],
    ['struct logger', 'debug_traceTransaction', (n) => [n.hash, {}]],
    ['eth_chainId', 'eth_chainId', () => []],
    ['eth_blockNumber', 'eth_blockNumber', () => []],
  ];
  for (const [kind, method, params] of kinds.filter(([k]) => wanted.includes(k))) {
    const cpu = [0, 0];
    const system = [0, 0];
    const wall = [0, 0];
    const count = [0, 0];
    const faults = [0, 0];
    const end = performance.now() + seconds * 1000;
    for (let turn = 0; performance.now() < end || turn < 6; turn++) {
      const side = turn % 2;
      const node = nodes[side]!;
      const [u0, s0, f0] = stat(node.pid);
      const t0 = performance.now();
      for (let i = 0; i < 100; i++) await call(node.url, method, params(node), 120_000);
      if (turn < 2) continue; // JIT warm-up
      wall[side]! += performance.now() - t0;
      const [u1, s1, f1] = stat(node.pid);
      cpu[side]! += u1 - u0 + s1 - s0;
      system[side]! += s1 - s0;
      faults[side]! += f1 - f0;
      count[side]! += 100;
    }
    const line = [0, 1].map(
      (s) =>
        `${nodes[s]!.name} ${(cpu[s]! / count[s]!).toFixed(3)} ms CPU (${(system[s]! / count[s]!).toFixed(3)} system), ${((1000 * count[s]!) / wall[s]!).toFixed(0)} req/s, ${(faults[s]! / count[s]!).toFixed(1)} page faults`,
    );
    process.stdout.write(`${kind}: ${line.join('; ')} (${count[0]} + ${count[1]} requests)\n`);
  }
} finally {
  await Promise.all(nodes.map((n) => n.stop()));
}

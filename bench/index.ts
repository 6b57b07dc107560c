/**
 * `npm run bench`: requests per second of `web3_clientVersion` on svc-node against a bare `node:http` JSON echo
 * server, measured in the same run. Each server runs in its own process and autocannon in a third. Every target
 * gets a discarded warm-up, then the runs alternate between the targets (so machine noise hits both alike) and
 * the median is reported with the ratio. Output: bench/results/latest.md.
 *
 * Knobs (environment): BENCH_RUNS (default 5), BENCH_DURATION seconds per run (5), BENCH_CONNECTIONS (10).
 *
 * `npm run bench -- --peers [--quick]` instead runs the side-by-side comparison with Anvil, Ganache, Hardhat and
 * the EthereumJS client (bench/compare/index.ts), writing bench/results/latest-peers.{md,svg,json};
 * `--only=writes` runs only the write rows, `--targets=svc-node,anvil,hardhat` only those nodes.
 *
 * Not run from here: `npx tsx bench/exec-load.ts`, the node under mixed load (64 connections of eth_call, transfers
 * sent and mined at a steady rate, eth_blockNumber polled every ~10 ms; its latency, calls/s, transfers mined/s and
 * the node's RSS over 60 s), writing bench/results/exec-load.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 5);
const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const target = 0.85;
const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'web3_clientVersion', params: [] });

interface Server {
  readonly name: string;
  readonly url: string;
  readonly child: ChildProcess;
}

/** Starts a process and resolves with the first stdout JSON line that has a port. */
function startServer(name: string, args: string[]): Promise<Server> {
  const { NODE_ENV: _dropped, ...env } = process.env; // production-like: no result validation
  const child = spawn(process.execPath, args, { cwd: repo, env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      for (const line of buffered.split('\n').slice(0, -1)) {
        try {
          // svc-node logs its p2p port too ("p2p listening"), sometimes first: only the RPC server's line counts.
          const entry = JSON.parse(line) as { port?: number; msg?: string };
          if (entry.port && (entry.msg === undefined || entry.msg === 'listening'))
            resolve({ name, url: `http://127.0.0.1:${entry.port}/`, child });
        } catch {
          // not a JSON line
        }
      }
      buffered = buffered.slice(buffered.lastIndexOf('\n') + 1);
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before listening`)));
  });
}

/** One autocannon run in its own process; returns the mean requests per second (only 2xx counted). */
function autocannon(url: string, seconds: number): Promise<number> {
  const args = [
    'node_modules/autocannon/autocannon.js',
    '--json',
    '-c',
    String(connections),
    '-d',
    String(seconds),
    '-m',
    'POST',
    '-H',
    'content-type=application/json',
    '-b',
    body,
    url,
  ];
  const child = spawn(process.execPath, args, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      const result = JSON.parse(out) as {
        requests: { average: number };
        non2xx: number;
        errors: number;
        duration: number;
        '2xx': number;
      };
      if (result.non2xx > 0 || result.errors > 0)
        return reject(new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`));
      resolve(result['2xx'] / result.duration);
    });
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

async function checkAnswers(server: Server): Promise<void> {
  const res = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const json = (await res.json()) as { result?: unknown };
  if (typeof json.result !== 'string')
    throw new Error(`${server.name} did not answer web3_clientVersion: ${JSON.stringify(json)}`);
}

async function main(): Promise<void> {
  if (process.argv.includes('--peers')) {
    const { runPeerComparison } = await import('./compare/index.js');
    return runPeerComparison(process.argv.slice(2));
  }
  const servers = [
    await startServer('bare node:http JSON echo', ['--import', 'tsx', 'bench/echo-server.ts']),
    await startServer('svc-node web3_clientVersion', [
      '--import',
      'tsx',
      'src/main.ts',
      '--http.port',
      '0',
      '--p2p.port',
      '0',
      '--datadir',
      `${repo}.data/bench`,
    ]),
  ];
  try {
    for (const server of servers) await checkAnswers(server);
    for (const server of servers) {
      process.stdout.write(`warm-up ${server.name}\n`);
      await autocannon(server.url, Math.max(2, Math.ceil(duration / 2)));
    }
    const samples = new Map<string, number[]>(servers.map((s) => [s.name, []]));
    for (let run = 1; run <= runs; run++) {
      for (const server of run % 2 ? servers : [...servers].reverse()) {
        const rps = await autocannon(server.url, duration);
        samples.get(server.name)!.push(rps);
        process.stdout.write(`run ${run}/${runs} ${server.name}: ${Math.round(rps)} req/s\n`);
      }
    }
    const [bare, svc] = servers.map((s) => median(samples.get(s.name)!)) as [number, number];
    const ratio = svc / bare;
    const report = [
      '# Benchmark: web3_clientVersion vs a bare node:http JSON echo',
      '',
      `Date: ${new Date().toISOString()}; Node ${process.version}; ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'};`,
      `autocannon: ${connections} connections, ${duration} s per run, ${runs} runs per target (alternating), warm-up discarded.`,
      `Load average when done: ${loadavg()
        .map((x) => x.toFixed(1))
        .join(', ')}: on a busy 2-core machine the servers compete`,
      'with the load generator and everything else, which lowers the ratio; compare runs made under similar load.',
      '',
      '| target | median req/s | runs (req/s) |',
      '|---|---:|---|',
      ...servers.map((s) => {
        const xs = samples.get(s.name)!;
        return `| ${s.name} | ${Math.round(median(xs))} | ${xs.map((x) => Math.round(x)).join(', ')} |`;
      }),
      '',
      `**Ratio svc-node / bare: ${ratio.toFixed(3)}** (target ≥ ${target}: ${ratio >= target ? 'met' : 'NOT met'})`,
      '',
    ].join('\n');
    mkdirSync(`${repo}bench/results`, { recursive: true });
    writeFileSync(`${repo}bench/results/latest.md`, report);
    process.stdout.write('\n' + report);
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
  }
}

await main();

// Logs over JSON-RPC: eth_getLogs over 1k/10k blocks, block import under 1,000 filters + 200 WebSocket
// subscribers (bench/logs-rpc.ts → bench/results/logs-rpc.md). BENCH_LOGS=0 skips it.
if (!process.argv.includes('--peers') && process.env.BENCH_LOGS !== '0') {
  const logsBench = spawn(process.execPath, ['--import', 'tsx', 'bench/logs-rpc.ts'], { cwd: repo, stdio: 'inherit' });
  process.exitCode = await new Promise<number>((resolve) => logsBench.once('exit', (code) => resolve(code ?? 1)));
}

// Writes and calls over JSON-RPC: signed transfers sent and mined per second, eth_call and eth_getBalance
// requests per second (bench/rpc-write.ts → bench/results/rpc-write.md). BENCH_RPC_WRITE=0 skips it.
if (!process.argv.includes('--peers') && process.env.BENCH_RPC_WRITE !== '0') {
  const writeBench = spawn(process.execPath, ['--import', 'tsx', 'bench/rpc-write.ts'], {
    cwd: repo,
    stdio: 'inherit',
  });
  const code = await new Promise<number>((resolve) => writeBench.once('exit', (c) => resolve(c ?? 1)));
  if (code !== 0) process.exitCode = code;
}

// Signed transfers through the pool and the dev miner in one process, per second: issue 3's throughput target
// (bench/mined-transfers.ts → bench/results/mined-transfers.md). BENCH_MINED=0 skips it.
if (!process.argv.includes('--peers') && process.env.BENCH_MINED !== '0') {
  const minedBench = spawn(process.execPath, ['--import', 'tsx', 'bench/mined-transfers.ts'], {
    cwd: repo,
    stdio: 'inherit',
  });
  const code = await new Promise<number>((resolve) => minedBench.once('exit', (c) => resolve(c ?? 1)));
  if (code !== 0) process.exitCode = code;
}

// Full sync over devp2p between two node processes against local import of the same 2,000 blocks of transfers,
// blocks per second and their ratio: issue 11 (bench/p2p-sync.ts → bench/results/p2p-sync.md). BENCH_SYNC=0 skips it.
if (!process.argv.includes('--peers') && process.env.BENCH_SYNC !== '0') {
  const syncBench = spawn(process.execPath, ['--import', 'tsx', 'bench/p2p-sync.ts'], { cwd: repo, stdio: 'inherit' });
  const code = await new Promise<number>((resolve) => syncBench.once('exit', (c) => resolve(c ?? 1)));
  if (code !== 0) process.exitCode = code;
}

// Real ETC history: svc-node import of era1 epoch 0 with every seal checked, blocks per second, and what one seal
// costs (bench/import-history.ts → bench/results/import-history.md). BENCH_IMPORT=0 skips it.
if (!process.argv.includes('--peers') && process.env.BENCH_IMPORT !== '0') {
  const importBench = spawn(process.execPath, ['--import', 'tsx', 'bench/import-history.ts'], {
    cwd: repo,
    stdio: 'inherit',
  });
  const code = await new Promise<number>((resolve) => importBench.once('exit', (c) => resolve(c ?? 1)));
  if (code !== 0) process.exitCode = code;
}

// Snap sync of a fresh node from three local serving nodes (a state of 1 M accounts and 1 M slots, built once and
// cached), accounts and slots per second, time to synced against full sync, peak RSS: issue 26
// (bench/snap-sync.ts → bench/results/snap-sync.md). BENCH_SNAP=0 skips it.
if (!process.argv.includes('--peers') && process.env.BENCH_SNAP !== '0') {
  const snapBench = spawn(process.execPath, ['--import', 'tsx', 'bench/snap-sync.ts'], { cwd: repo, stdio: 'inherit' });
  const code = await new Promise<number>((resolve) => snapBench.once('exit', (c) => resolve(c ?? 1)));
  if (code !== 0) process.exitCode = code;
}

// Tracing: debug_traceTransaction of a ~1,000-opcode transaction with the struct logger and callTracer, traces per
// second on svc-node, Anvil and Hardhat in one run (bench/trace.ts → bench/results/trace.md). BENCH_TRACE=0 skips it.
if (!process.argv.includes('--peers') && process.env.BENCH_TRACE !== '0') {
  const traceBench = spawn(process.execPath, ['--import', 'tsx', 'bench/trace.ts'], { cwd: repo, stdio: 'inherit' });
  const code = await new Promise<number>((resolve) => traceBench.once('exit', (c) => resolve(c ?? 1)));
  if (code !== 0) process.exitCode = code;
}

/**
 * `npx tsx bench/trace-cpu.ts [seconds=3] [rounds=3]`: one svc-node (this checkout) answering, one request at a
 * time, eth_chainId, a callTracer trace and a struct-logger trace of bench/trace.ts's countdown transaction; per
 * request kind the median over `rounds` of the server's CPU ms per request (from /proc) and requests/s. A quicker
 * A/B than bench/trace.ts (no peers): run it on two checkouts in turn. BENCH_NODE_DIR=<dir> runs the node of another
 * checkout (e.g. /work/main) with this one's client.
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

const repo = process.env.BENCH_NODE_DIR ?? fileURLToPath(new URL('../', import.meta.url));
const seconds = Number(process.argv[2] ?? 3);
const rounds = Number(process.argv[3] ?? 3);
const port = await freePort();
const datadir = mkdtempSync(join(tmpdir(), 'trace-cpu-'));
const { NODE_ENV: _dropped, ...env } = process.env;
const child = spawn(
  process.execPath,
  ['--import', 'tsx', 'src/main.ts', '--http.port', String(port), '--http.addr', '127.0.0.1', '--no-p2p'].concat([
    '--datadir',
    datadir,
  ]),
  { cwd: repo, env, stdio: ['ignore', 'ignore', 'inherit'] },
);
const url = `http://127.0.0.1:${port}/`;

/** [user, system, main thread's user + system] CPU ms of the node (all threads). */
function cpuMs(): [number, number, number] {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const main = readFileSync(`/proc/${child.pid}/task/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return [Number(fields[11]) * 10, Number(fields[12]) * 10, (Number(main[11]) + Number(main[12])) * 10];
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  for (let i = 0; ; i++) {
    try {
      await call(url, 'eth_chainId', [], 1000);
      break;
    } catch {
      if (i > 600) throw new Error('no answer');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const [, hash] = await sendScenario(url, [
    { name: 'deploy countdown', data: deployCode(countdownRuntime), gas: 300_000 },
    { name: 'count down', to: contractAt(0), data: `0x${(142).toString(16).padStart(64, '0')}`, gas: 1_000_000 },
  ]);
  const kinds: [string, string, unknown[]][] = [
    ['eth_chainId', 'eth_chainId', []],
    ['callTracer', 'debug_traceTransaction', [hash, { tracer: 'callTracer' }]],
    ['struct logger', 'debug_traceTransaction', [hash, {}]],
  ];
  const results = new Map<string, { cpu: number[]; sys: number[]; main: number[]; rate: number[] }>();
  for (let round = -1; round < rounds; round++) {
    for (const [name, method, params] of kinds) {
      const end = performance.now() + (round < 0 ? 1000 : seconds * 1000);
      const cpu0 = cpuMs();
      let n = 0;
      while (performance.now() < end) {
        await call(url, method, params, 120_000);
        n++;
      }
      if (round < 0) continue;
      const r = results.get(name) ?? { cpu: [], sys: [], main: [], rate: [] };
      const cpu1 = cpuMs();
      r.cpu.push((cpu1[0] + cpu1[1] - cpu0[0] - cpu0[1]) / n);
      r.sys.push((cpu1[1] - cpu0[1]) / n);
      r.main.push((cpu1[2] - cpu0[2]) / n);
      r.rate.push(n / seconds);
      results.set(name, r);
    }
  }
  for (const [name, r] of results)
    process.stdout.write(
      `${name}: ${median(r.rate).toFixed(1)} req/s, ${median(r.cpu).toFixed(3)} ms server CPU per request (system ${median(r.sys).toFixed(3)}, main thread ${median(r.main).toFixed(3)})\n`,
    );
} finally {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  rmSync(datadir, { recursive: true, force: true });
}

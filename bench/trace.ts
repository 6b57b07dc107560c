/**
 * Traces per second of one ~1,000-opcode transaction (a countdown loop, test/trace/evm-asm.ts) with the struct
 * logger and with callTracer, over JSON-RPC (`debug_traceTransaction`), on svc-node, Anvil and Hardhat in one run.
 * Each node runs in its own process on loopback with its own dev accounts; the same contract and call are sent to
 * each (legacy transactions). Per tracer, the targets take turns (BENCH_TRACE_RUNS rounds of BENCH_TRACE_SECONDS
 * each, after a warm-up) so machine noise hits them alike; the median is reported.
 *   npx tsx bench/trace.ts            writes bench/results/trace.md
 * Knobs: BENCH_TRACE_RUNS (3), BENCH_TRACE_SECONDS (3), BENCH_TRACE_STEPS (1000).
 * Hardhat comes from bench/peers (installed there on first use, as the peer comparison does).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/helpers/free-port.js';
import { RpcCallError, call } from '../test/helpers/rpc.js';
import { startAnvil } from '../test/trace/anvil.js';
import { countdownRuntime, deployCode } from '../test/trace/evm-asm.js';
import { ACCOUNT0, contractAt, sendScenario } from '../test/trace/scenario.js';

const repo = fileURLToPath(new URL('../', import.meta.url));
const peersDir = join(repo, 'bench/peers/');
const RUNS = Number(process.env.BENCH_TRACE_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_TRACE_SECONDS ?? 3);
const STEPS = Number(process.env.BENCH_TRACE_STEPS ?? 1000);

interface Target {
  readonly name: string;
  readonly url: string;
  stop(): Promise<void>;
}

async function waitForRpc(url: string, child: ChildProcess, name: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    try {
      await call(url, 'eth_chainId', [], 1000);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${name} did not answer within 60 s`);
}

function stopper(child: ChildProcess, after?: () => void): () => Promise<void> {
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    after?.();
  };
}

async function startSvcNode(): Promise<Target> {
  const port = await freePort();
  const datadir = mkdtempSync(join(tmpdir(), 'bench-trace-'));
  const { NODE_ENV: _dropped, ...env } = process.env; // production-like: no result validation
  const args = ['--import', 'tsx', 'src/main.ts', '--http.port', String(port), '--http.addr', '127.0.0.1'];
  const child = spawn(process.execPath, [...args, '--no-p2p', '--datadir', datadir], {
    cwd: repo,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}/`;
  await waitForRpc(url, child, 'svc-node');
  return { name: 'svc-node', url, stop: stopper(child, () => rmSync(datadir, { recursive: true, force: true })) };
}

async function startHardhat(): Promise<Target> {
  if (!existsSync(join(peersDir, 'node_modules/hardhat/package.json'))) {
    const npm = spawnSync('npm', ['install', '--prefix', peersDir, '--no-audit', '--no-fund'], { stdio: 'inherit' });
    if (npm.status !== 0) throw new Error(`npm install --prefix bench/peers failed with ${npm.status}`);
  }
  const bin = createRequire(peersDir).resolve('hardhat/internal/cli/bootstrap.js');
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [bin, 'node', '--hostname', '127.0.0.1', '--port', String(port), '--config', 'hardhat.config.cjs'],
    { cwd: peersDir, env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' }, stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}/`;
  await waitForRpc(url, child, 'Hardhat');
  return { name: 'Hardhat', url, stop: stopper(child) };
}

async function startAnvilTarget(): Promise<Target> {
  const anvil = await startAnvil();
  return { name: 'Anvil', url: anvil.url, stop: () => anvil.stop() };
}

/** The countdown's argument for about `steps` opcodes: 3 to start and stop, 7 per round. */
const rounds = Math.max(1, Math.round((STEPS - 3) / 7));

/** Deploys the countdown and sends one call of it; the call's hash. */
async function prepare(target: Target): Promise<string> {
  const [, hash] = await sendScenario(target.url, [
    { name: 'deploy countdown', data: deployCode(countdownRuntime), gas: 300_000 },
    { name: 'count down', to: contractAt(0), data: `0x${rounds.toString(16).padStart(64, '0')}`, gas: 1_000_000 },
  ]);
  const code = await call<string>(target.url, 'eth_getCode', [contractAt(0), 'latest']);
  if (code.length < 4) throw new Error(`${target.name}: the countdown was not deployed from ${ACCOUNT0}`);
  return hash;
}

const TRACERS: Record<string, object> = {
  'struct logger': {},
  callTracer: { tracer: 'callTracer' },
};

async function tracesPerSecond(target: Target, hash: string, config: object, seconds: number): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let count = 0;
  while (performance.now() < end) {
    await call(target.url, 'debug_traceTransaction', [hash, config], 120_000);
    count++;
  }
  return count / seconds;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const targets: Target[] = [];
try {
  targets.push(await startSvcNode(), await startAnvilTarget(), await startHardhat());
  const hashes = new Map<Target, string>();
  const steps = new Map<Target, number>();
  for (const t of targets) {
    const hash = await prepare(t);
    hashes.set(t, hash);
    const trace = await call<{ structLogs: unknown[] }>(t.url, 'debug_traceTransaction', [hash, {}], 120_000);
    steps.set(t, trace.structLogs.length);
  }
  const rates = new Map<string, number[]>();
  /** Why a target cannot run a tracer (its own answer), by `tracer|target`. */
  const refused = new Map<string, string>();
  for (const [tracer, config] of Object.entries(TRACERS)) {
    for (const t of targets) {
      try {
        await tracesPerSecond(t, hashes.get(t)!, config, 1);
      } catch (err) {
        refused.set(`${tracer}|${t.name}`, err instanceof RpcCallError ? `${err.code} ${err.message}` : String(err));
      }
    }
    for (let run = 0; run < RUNS; run++) {
      for (const t of targets) {
        if (refused.has(`${tracer}|${t.name}`)) continue;
        const key = `${tracer}|${t.name}`;
        const rate = await tracesPerSecond(t, hashes.get(t)!, config, SECONDS);
        rates.set(key, [...(rates.get(key) ?? []), rate]);
        process.stdout.write(`${tracer} ${t.name} run ${run + 1}: ${rate.toFixed(1)} traces/s\n`);
      }
    }
  }
  const svc = (tracer: string) => median(rates.get(`${tracer}|svc-node`)!);
  const lines = [
    '# debug_traceTransaction: traces per second',
    '',
    `One transaction of ${[...steps.values()].join(' / ')} opcodes (${targets.map((t) => t.name).join(' / ')}; a`,
    `countdown loop), traced over JSON-RPC one request at a time; median of ${RUNS} runs of ${SECONDS} s per target,`,
    'the targets taking turns. `npx tsx bench/trace.ts` (also part of `npm run bench`; BENCH_TRACE=0 skips it).',
    '',
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, load ${loadavg()[0]!.toFixed(2)} at the end; ${new Date().toISOString()}.`,
    '',
    `| tracer | ${targets.map((t) => t.name).join(' | ')} | svc-node ÷ Anvil | svc-node ÷ Hardhat |`,
    `| --- | ${targets.map(() => '---:').join(' | ')} | ---: | ---: |`,
    ...Object.keys(TRACERS).map((tracer) => {
      const rate = (name: string): number | undefined => {
        const runs = rates.get(`${tracer}|${name}`);
        return runs === undefined ? undefined : median(runs);
      };
      const cells = targets.map((t) => rate(t.name)?.toFixed(1) ?? 'refused¹');
      const ratio = (name: string) => {
        const other = rate(name);
        return other === undefined ? '–' : (svc(tracer) / other).toFixed(2);
      };
      return `| ${tracer} | ${cells.join(' | ')} | ${ratio('Anvil')} | ${ratio('Hardhat')} |`;
    }),
    '',
    ...[...refused].map(([key, why]) => `¹ ${key.replace('|', ' on ')}: ${why}`),
    '',
  ];
  mkdirSync(join(repo, 'bench/results'), { recursive: true });
  writeFileSync(join(repo, 'bench/results/trace.md'), lines.join('\n'));
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await Promise.all(targets.map((t) => t.stop()));
}

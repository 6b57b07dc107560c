/**
 * Traces per second of one ~1,000-opcode transaction (a countdown loop, test/trace/evm-asm.ts) with the struct
 * logger and with callTracer, over JSON-RPC (`debug_traceTransaction`), on svc-node, Anvil and Hardhat in one run.
 * Each node runs in its own process on loopback with its own dev accounts; the same contract and call are sent to
 * each (legacy transactions). Per tracer, the targets take turns (BENCH_TRACE_RUNS rounds of BENCH_TRACE_SECONDS
 * each, after a warm-up) so machine noise hits them alike; the median is reported, with each server's CPU time per
 * trace where /proc gives it (a loaded machine stretches wall time far more than CPU time).
 *   npx tsx bench/trace.ts            writes bench/results/trace.md
 * svc-node runs as `npm start` runs it and as the peer comparison starts it (bench/compare/targets.ts): `node
 * bin/svc-node.js`, the compiled bundle, built first; Anvil and Hardhat run as they ship too.
 * Knobs: BENCH_TRACE_RUNS (3), BENCH_TRACE_SECONDS (3), BENCH_TRACE_STEPS (1000); BENCH_NODE_DIR=<checkout> runs the
 * svc-node of another checkout (an A/B in one session; the results file is still written here); BENCH_TRACE_TSX=1
 * runs svc-node's TypeScript sources through tsx instead (a development run: ~15 % more CPU a trace, measured
 * alternating with the bundle on a loaded machine).
 * Hardhat comes from bench/peers (installed there on first use, as the peer comparison does).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  /** The server's process (its CPU time is read from /proc where there is one). */
  readonly pid: number | undefined;
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

/** Sources through tsx (BENCH_TRACE_TSX=1), else the shipped entry point. */
const fromSources = process.env.BENCH_TRACE_TSX === '1';

async function startSvcNode(): Promise<Target> {
  const port = await freePort();
  const datadir = mkdtempSync(join(tmpdir(), 'bench-trace-'));
  const { NODE_ENV: _dropped, ...env } = process.env; // production-like: no result validation
  const cwd = process.env.BENCH_NODE_DIR ?? repo;
  if (!fromSources) {
    // dist/ and its bundle brought up to date before the node's start is timed (bin/svc-node.js would do it too).
    const build = spawnSync(process.execPath, ['bin/build.js'], { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
    if (build.status !== 0) throw new Error(`bin/build.js failed with ${build.status}`);
  }
  const entry = fromSources ? ['--import', 'tsx', 'src/main.ts'] : ['bin/svc-node.js'];
  const args = [...entry, '--http.port', String(port), '--http.addr', '127.0.0.1'];
  const child = spawn(process.execPath, [...args, '--no-p2p', '--datadir', datadir], {
    cwd,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}/`;
  await waitForRpc(url, child, 'svc-node');
  const stop = stopper(child, () => rmSync(datadir, { recursive: true, force: true }));
  return { name: 'svc-node', url, pid: child.pid, stop };
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
  return { name: 'Hardhat', url, pid: child.pid, stop: stopper(child) };
}

async function startAnvilTarget(): Promise<Target> {
  const anvil = await startAnvil();
  return { name: 'Anvil', url: anvil.url, pid: anvil.child.pid, stop: () => anvil.stop() };
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

/**
 * CPU ms the process has used (user + system, all its threads), from /proc; undefined elsewhere. A shared machine's
 * load stretches each target's wall time differently; the CPU a trace takes its server stretches far less.
 */
function cpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
/** USER_HZ: 100 on every Linux build that matters here. */
const CLOCK_TICKS = 100;

/** Traces per second, and the server's CPU ms per trace where it can be read. */
async function tracesPerSecond(
  target: Target,
  hash: string,
  config: object,
  seconds: number,
): Promise<{ rate: number; cpu: number | undefined }> {
  const end = performance.now() + seconds * 1000;
  const cpuBefore = cpuMs(target.pid);
  let count = 0;
  while (performance.now() < end) {
    await call(target.url, 'debug_traceTransaction', [hash, config], 120_000);
    count++;
  }
  const cpuAfter = cpuMs(target.pid);
  const cpu = cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / count;
  return { rate: count / seconds, cpu };
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
  /** Server CPU ms per trace, by `tracer|target`, where /proc has it. */
  const cpuRuns = new Map<string, number[]>();
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
        const { rate, cpu } = await tracesPerSecond(t, hashes.get(t)!, config, SECONDS);
        rates.set(key, [...(rates.get(key) ?? []), rate]);
        if (cpu !== undefined) cpuRuns.set(key, [...(cpuRuns.get(key) ?? []), cpu]);
        const cpuText = cpu === undefined ? '' : `, ${cpu.toFixed(2)} ms server CPU per trace`;
        process.stdout.write(`${tracer} ${t.name} run ${run + 1}: ${rate.toFixed(1)} traces/s${cpuText}\n`);
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
    fromSources
      ? 'svc-node ran its TypeScript sources through tsx (BENCH_TRACE_TSX=1), not its bundle.'
      : 'svc-node ran as `npm start` runs it (`node bin/svc-node.js`, the bundle), as in the peer comparison.',
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
    ...cpuTable(),
    ...[...refused].map(([key, why]) => `¹ ${key.replace('|', ' on ')}: ${why}`),
    '',
  ];
  /** The same runs as the server's CPU ms per trace (median): what a loaded machine distorts least. */
  function cpuTable(): string[] {
    if (cpuRuns.size === 0) return [];
    const cpuOf = (tracer: string, name: string): number | undefined => {
      const runs = cpuRuns.get(`${tracer}|${name}`);
      return runs === undefined ? undefined : median(runs);
    };
    return [
      `Server CPU ms per trace (user + system, all threads, from /proc), median of the same runs:`,
      '',
      `| tracer | ${targets.map((t) => t.name).join(' | ')} | Anvil ÷ svc-node |`,
      `| --- | ${targets.map(() => '---:').join(' | ')} | ---: |`,
      ...Object.keys(TRACERS).map((tracer) => {
        const cells = targets.map((t) => cpuOf(tracer, t.name)?.toFixed(2) ?? '–');
        const svcCpu = cpuOf(tracer, 'svc-node');
        const anvilCpu = cpuOf(tracer, 'Anvil');
        const ratio = svcCpu === undefined || anvilCpu === undefined ? '–' : (anvilCpu / svcCpu).toFixed(2);
        return `| ${tracer} | ${cells.join(' | ')} | ${ratio} |`;
      }),
      '',
    ];
  }
  mkdirSync(join(repo, 'bench/results'), { recursive: true });
  writeFileSync(join(repo, 'bench/results/trace.md'), lines.join('\n'));
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await Promise.all(targets.map((t) => t.stop()));
}

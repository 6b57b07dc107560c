/**
 * Starts a target as its own process group on loopback, waits for its first answered `eth_blockNumber` (the
 * cold-start figure), and stops the whole group it started.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, rmSync } from 'node:fs';
import { freePort } from '../../test/helpers/free-port.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MethodUnavailable, RpcClient, sleep } from './rpc.js';
import type { Target } from './targets.js';

export interface RunningTarget {
  readonly target: Target;
  readonly rpc: RpcClient;
  readonly url: string;
  readonly pid: number;
  readonly logFile: string;
  readonly dataDir: string;
  /** Spawn to the first eth_blockNumber answered with a result; undefined when the method is not served. */
  readonly coldStartMs: number | undefined;
  /** Spawn to the first JSON-RPC answer of any kind (what readiness fell back on). */
  readonly firstAnswerMs: number;
  stop(): Promise<void>;
}

export { freePort };

const startTimeoutMs = 120_000;

/** Process groups started and not yet stopped: killed if the harness dies, so no node outlives a failed run. */
const liveGroups = new Set<number>();
process.once('exit', () => {
  for (const pgid of liveGroups) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

export async function startTarget(target: Target, workDir: string): Promise<RunningTarget> {
  const [port, sparePort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(workDir, `${target.id}-`));
  const logFile = `${dataDir}.log`;
  const plan = target.launch(port, dataDir, sparePort);
  const logFd = openSync(logFile, 'w');
  const started = performance.now();
  // detached = its own process group, so stop() reaches launcher wrappers and worker processes it forked.
  const child = spawn(plan.command ?? process.execPath, plan.args, {
    cwd: plan.cwd,
    env: plan.env,
    detached: true,
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  liveGroups.add(child.pid!);
  child.once('exit', () => liveGroups.delete(child.pid!));
  const url = `http://127.0.0.1:${port}/`;
  const rpc = new RpcClient(url);
  let exited: string | undefined;
  child.once('exit', (code, signal) => (exited = `exited with ${code ?? signal}`));

  let firstAnswerMs: number | undefined;
  let coldStartMs: number | undefined;
  while (coldStartMs === undefined) {
    if (exited) throw new Error(`${target.name} ${exited} before answering; see ${logFile}`);
    if (performance.now() - started > startTimeoutMs) {
      await stopGroup(child);
      throw new Error(`${target.name} did not answer within ${startTimeoutMs / 1000} s; see ${logFile}`);
    }
    try {
      await rpc.call('eth_blockNumber');
      coldStartMs = performance.now() - started;
      firstAnswerMs ??= coldStartMs;
    } catch (err) {
      if (err instanceof MethodUnavailable) {
        firstAnswerMs ??= performance.now() - started;
        break;
      }
      await sleep(20); // not listening yet
    }
  }
  return {
    target,
    rpc,
    url,
    pid: child.pid!,
    logFile,
    dataDir,
    coldStartMs,
    firstAnswerMs: firstAnswerMs!,
    stop: async () => {
      await stopGroup(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  signalGroup('SIGTERM');
  const timer = setTimeout(() => signalGroup('SIGKILL'), 5_000);
  await gone;
  clearTimeout(timer);
  signalGroup('SIGKILL'); // stragglers in the group (cache workers) must not outlive the run
}

export function makeWorkDir(): string {
  return mkdtempSync(join(tmpdir(), 'svc-bench-peers-'));
}

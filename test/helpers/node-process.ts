/**
 * Runs svc-node as a child process, the way a user does: `node dist/bundle/main.js <flags>` (what `svc-node` and
 * `npm start` run; test/global-setup.ts brings it up to date with src/ before any test) on a free loopback port
 * (`--http.port 0`) with a temporary datadir, waits for its `listening` log line, and kills it after.
 *
 * `SVC_NODE_TEST_CODE=sources` runs the TypeScript sources through tsx instead: the same code, but each start costs
 * ~3.5 s of CPU for the transform instead of ~0.4 s, which across the suite's hundreds of starts was most of CI's time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onJsonLines } from './json-lines.js';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const mainPath = join(repoRoot, 'src/main.ts');

export interface NodeProcess {
  readonly child: ChildProcess;
  readonly port: number;
  /** `http://127.0.0.1:<port>/` (or https). */
  readonly url: string;
  readonly wsUrl: string;
  readonly datadir: string;
  /** Our enode URL and devp2p port, from the listening line; undefined when peering is off. */
  readonly enode?: string;
  readonly p2pPort?: number;
  /** Every stdout line so far, parsed when it is JSON. */
  readonly logs: Array<Record<string, unknown>>;
  stop(): Promise<void>;
}

export interface StartNodeOptions {
  /**
   * Extra flags; `--http.port 0`, `--http.addr 127.0.0.1` and `--datadir <tmp>` are added unless given, and so
   * are `--p2p.port 0` and `--p2p.addr 127.0.0.1` unless given or `--no-p2p` (test nodes run in parallel: the
   * default 9076 would clash, and mordor/etc would listen on every interface).
   */
  readonly args?: readonly string[];
  /** Leave peering to the node's own defaults: no `--p2p.port 0` / `--p2p.addr 127.0.0.1` added. */
  readonly ownP2pDefaults?: boolean;
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
  /** What runs: the bundle `svc-node` starts from (bin/bundle.js; the default), or the TypeScript sources through tsx. */
  readonly code?: 'sources' | 'bundle';
}

const bundlePath = join(repoRoot, 'dist/bundle/main.js');
const defaultCode: 'sources' | 'bundle' = process.env.SVC_NODE_TEST_CODE === 'sources' ? 'sources' : 'bundle';

/** The node's arguments before its flags: what `startNode` runs (the bundle unless SVC_NODE_TEST_CODE=sources). */
export function mainEntry(code: 'sources' | 'bundle' = defaultCode): string[] {
  return code === 'bundle' ? [bundlePath] : ['--import', 'tsx', mainPath];
}

function spawnMain(
  args: readonly string[],
  env: NodeJS.ProcessEnv | undefined,
  code: 'sources' | 'bundle' = defaultCode,
): ChildProcess {
  return spawn(process.execPath, [...mainEntry(code), ...args], {
    cwd: repoRoot,
    env: { ...process.env, NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export async function startNode(options: StartNodeOptions = {}): Promise<NodeProcess> {
  const args = [...(options.args ?? [])];
  const datadir = mkdtempSync(join(tmpdir(), 'svc-node-test-'));
  if (!args.includes('--http.port')) args.push('--http.port', '0');
  if (!args.includes('--http.addr')) args.push('--http.addr', '127.0.0.1');
  if (!args.includes('--datadir')) args.push('--datadir', datadir);
  if (!args.includes('--no-p2p') && options.ownP2pDefaults !== true) {
    if (!args.includes('--p2p.port')) args.push('--p2p.port', '0');
    if (!args.includes('--p2p.addr')) args.push('--p2p.addr', '127.0.0.1');
  }
  // One Ethash cache for every test node (epoch 0, built once instead of ~2.5 s CPU per node start).
  if (!args.includes('--ethash.cachedir')) args.push('--ethash.cachedir', join(tmpdir(), 'svc-node-test-ethash'));

  // Each node its own fork cache unless the test shares one: ~/.cache would carry answers from run to run.
  const env = { SVC_NODE_FORK_CACHE_DIR: join(datadir, 'fork-cache'), ...options.env };
  const child = spawnMain(args, env, options.code);
  const logs: Array<Record<string, unknown>> = [];
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));

  const listening = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`svc-node did not report listening within ${options.timeoutMs ?? 30_000} ms\nstderr: ${stderr}`),
      );
    }, options.timeoutMs ?? 30_000);
    onJsonLines(child.stdout!, (parsed, line) => {
      const entry = parsed ?? { raw: line };
      logs.push(entry);
      if (entry.msg === 'listening') {
        clearTimeout(timer);
        resolve(entry);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`svc-node exited with ${code} before listening\nstderr: ${stderr}`));
    });
  });

  const port = listening.port as number;
  const url = listening.url as string;
  return {
    child,
    port,
    url,
    wsUrl: listening.ws as string,
    datadir,
    ...(typeof listening.enode === 'string' ? { enode: listening.enode } : {}),
    ...(typeof listening.p2pPort === 'number' ? { p2pPort: listening.p2pPort } : {}),
    logs,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(datadir, { recursive: true, force: true });
    },
  };
}

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI to completion (for --help and start-up failures). */
export function runCli(args: readonly string[], env?: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<CliRun> {
  const child = spawnMain(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `svc-node ${args.join(' ')} did not exit within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`,
        ),
      );
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * The soak's node: one dev node process (`node --import tsx src/main.ts` unless told otherwise, instant seal, no
 * peering) on a free loopback port with a temporary datadir, in a process group of its own so that stopping it ends
 * everything it started, also when the soak fails or is interrupted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rssBytesOf } from '../../bench/compare/process-tree.js';
import { onJsonLines } from '../../test/helpers/json-lines.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface SoakNode {
  readonly pid: number;
  readonly url: string;
  readonly wsUrl: string;
  /** Log lines (parsed JSON) whose `msg` is one of the watched messages, as they came. */
  readonly watched: Array<Record<string, unknown>>;
  /** Resident set size from /proc/<pid>/status, in bytes; undefined once the process is gone. */
  rss(): number | undefined;
  stop(): Promise<void>;
}

export interface SoakNodeOptions {
  /** Settings as environment variables (`SVC_NODE_…`). */
  readonly env?: Record<string, string>;
  /** Log messages to keep (everything else is only counted). */
  readonly watch?: readonly string[];
  readonly timeoutMs?: number;
  /**
   * What runs, as the `node` arguments before the node's flags; default the TypeScript sources through tsx (a soak
   * runs from a checkout whose dist/ may be older than its sources). test/server/soak.test.ts passes the bundle its
   * global setup just built: ~0.6 s of CPU to start instead of ~4 s through tsx.
   */
  readonly entry?: readonly string[];
}

const live = new Map<ChildProcess, string>();
/** Ends every soak node still running, a process group each (SIGKILL: for abnormal exits and signals), and removes its datadir. */
export function killSoakNodes(): void {
  for (const [child, datadir] of live) {
    killGroup(child, 'SIGKILL');
    rmSync(datadir, { recursive: true, force: true });
  }
  live.clear();
}
let hooked = false;
function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', killSoakNodes);
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

export async function startSoakNode(options: SoakNodeOptions = {}): Promise<SoakNode> {
  hookExit();
  const datadir = mkdtempSync(join(tmpdir(), 'svc-node-soak-'));
  const args = [
    ...(options.entry ?? ['--import', 'tsx', join(repoRoot, 'src/main.ts')]),
    '--network',
    'dev',
    '--http.addr',
    '127.0.0.1',
    '--http.port',
    '0',
    '--datadir',
    datadir,
    '--no-p2p',
  ];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    // Not NODE_ENV=test: results are not re-validated against their schemas, as in production.
    env: { ...process.env, NODE_ENV: 'production', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  live.set(child, datadir);
  child.once('exit', () => live.delete(child));
  const watch = new Set(options.watch ?? []);
  const watched: Array<Record<string, unknown>> = [];
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const cleanup = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      killGroup(child, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(datadir, { recursive: true, force: true });
  };
  try {
    const listening = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? 60_000;
      const timer = setTimeout(
        () => reject(new Error(`the node did not report listening within ${timeoutMs} ms\nstderr: ${stderr}`)),
        timeoutMs,
      );
      onJsonLines(child.stdout!, (entry) => {
        if (entry === undefined) return;
        if (typeof entry.msg === 'string' && watch.has(entry.msg)) watched.push(entry);
        if (entry.msg === 'listening') {
          clearTimeout(timer);
          resolve(entry);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the node exited with ${code} before listening\nstderr: ${stderr}`));
      });
    });
    const pid = child.pid!;
    return {
      pid,
      url: listening.url as string,
      wsUrl: listening.ws as string,
      watched,
      rss: () => rssBytesOf(pid) || undefined,
      stop: cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

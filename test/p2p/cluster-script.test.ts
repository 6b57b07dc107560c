/**
 * `npm run cluster` stopped the way a supervisor stops a command (systemd's main process, `timeout`, a CI step):
 * SIGTERM to the npm process only, not to its process group as Ctrl-C at a terminal does. npm passes the signal
 * on to its child; the nodes the cluster started must stop with it, not live on as orphans that hold the ports and
 * datadir locks the next `npm run cluster` needs. Only node1 is waited for: the stop path is the same for three.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { repoRoot } from '../helpers/node-process.js';

const baseDir = mkdtempSync(join(tmpdir(), 'svc-cluster-script-'));
const pidFile = (name: string) => join(baseDir, name, 'svc-node.pid');
let npm: ChildProcess | undefined;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid a node wrote into its datadir once it held the chain database, if it did. */
function nodePid(name: string): number | undefined {
  if (!existsSync(pidFile(name))) return undefined;
  const pid = Number.parseInt(readFileSync(pidFile(name), 'utf8'), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

async function until(condition: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

afterAll(() => {
  // Whatever outlived the test (the failure this file guards against): the nodes by their pid files, then
  // npm's own process group (npm, its shell, tsx and the cluster script).
  for (const name of ['node1', 'node2', 'node3']) {
    const pid = nodePid(name);
    if (pid !== undefined && alive(pid)) process.kill(pid, 'SIGKILL');
  }
  try {
    if (npm?.pid !== undefined) process.kill(-npm.pid, 'SIGKILL');
  } catch {
    // the group is gone
  }
  rmSync(baseDir, { recursive: true, force: true });
});

describe('npm run cluster', () => {
  it('stops its nodes when npm alone gets SIGTERM', async () => {
    const ports = await Promise.all(Array.from({ length: 6 }, freePort));
    const args = ['run', 'cluster', '--', '--base-dir', baseDir];
    args.push('--http-ports', ports.slice(0, 3).join(','), '--p2p-ports', ports.slice(3).join(','));
    let output = '';
    // Its own process group, so that the signal below reaches npm alone and the cleanup can reach the rest.
    npm = spawn('npm', args, { cwd: repoRoot, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    npm.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    npm.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const npmExited = new Promise((resolve) => npm!.once('exit', resolve));

    await until(() => nodePid('node1') !== undefined, `node1 to hold its datadir\n${output}`, 60_000);
    const node1 = nodePid('node1')!;
    expect(alive(node1)).toBe(true);

    npm.kill('SIGTERM');
    await npmExited;
    await until(() => !alive(node1), `node1 (pid ${node1}) to stop after npm was told to\n${output}`, 30_000);
    for (const name of ['node2', 'node3']) {
      const pid = nodePid(name);
      if (pid !== undefined) await until(() => !alive(pid), `${name} (pid ${pid}) to stop`, 30_000);
    }
  }, 120_000);
});

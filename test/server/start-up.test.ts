/**
 * Start-up as a user runs it: `npm start` runs exactly one node process under npm (npm execs `node
 * bin/svc-node.js`, which runs the compiled JavaScript in dist/ itself); a SIGKILL of npm, which nothing can pass
 * on, makes that node notice its parent is gone and stop cleanly, so the next `npm start` opens the datadir; and a
 * second node on a datadir in use says which datadir and the pid of the svc-node holding it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { PID_FILE, readPidFile } from '../../src/node/datadir-pid.js';
import { onJsonLines } from '../helpers/json-lines.js';
import { mainEntry, repoRoot, runCli, startNode, type NodeProcess } from '../helpers/node-process.js';

const dirs: string[] = [];
const groups: ChildProcess[] = [];
const nodes: NodeProcess[] = [];

afterAll(async () => {
  for (const npm of groups) {
    try {
      process.kill(-npm.pid!, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  }
  await Promise.all(nodes.map((n) => n.stop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-node-start-up-'));
  dirs.push(dir);
  return dir;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Parent pid and process group of a process, from /proc (Linux); undefined when it is gone or there is no /proc. */
function procStat(pid: number): { ppid: number; pgrp: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so count from the last ')'.
    const [, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(ppid), pgrp: Number(pgrp) };
  } catch {
    return undefined;
  }
}

/** Every process of a process group, from /proc. */
function groupMembers(pgrp: number): number[] {
  const pids = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
  return pids.filter((pid) => procStat(pid)?.pgrp === pgrp);
}

interface NpmStart {
  readonly npm: ChildProcess;
  readonly logs: Array<Record<string, unknown>>;
  readonly listening: Record<string, unknown>;
}

/** `npm start -- <flags>` in its own process group; resolves at the node's `listening` log line. */
async function npmStart(datadir: string): Promise<NpmStart> {
  const args = [
    '--datadir',
    datadir,
    '--http.port',
    '0',
    '--http.addr',
    '127.0.0.1',
    '--p2p.port',
    '0',
    '--p2p.addr',
    '127.0.0.1',
  ];
  const npm = spawn('npm', ['start', '--silent', '--', ...args], {
    cwd: repoRoot,
    env: { ...process.env, NODE_ENV: 'test' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  groups.push(npm);
  const logs: Array<Record<string, unknown>> = [];
  let stderr = '';
  npm.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const listening = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start did not report listening within 60 s\nstderr: ${stderr}`)),
      60_000,
    );
    let buffered = '';
    npm.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) !== -1) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        try {
          const entry = JSON.parse(line) as Record<string, unknown>;
          logs.push(entry);
          if (entry.msg === 'listening') {
            clearTimeout(timer);
            resolve(entry);
          }
        } catch {
          // not a log line
        }
      }
    });
    npm.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code} before listening\nstderr: ${stderr}`));
    });
  });
  return { npm, logs, listening };
}

async function blockNumber(url: string): Promise<string> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  return ((await res.json()) as { result: string }).result;
}

describe('npm start', () => {
  it('runs one node process under npm; a SIGKILL of npm stops it cleanly and the next npm start opens the datadir', async () => {
    const datadir = tempDir();
    const first = await npmStart(datadir);
    expect(await blockNumber(first.listening.url as string)).toBe('0x0');

    // The node wrote its pid into the datadir: one process, npm's own child (no shell, no tsx launcher between).
    const nodePid = readPidFile(datadir)!;
    expect(nodePid).toBeGreaterThan(0);
    expect(nodePid).not.toBe(first.npm.pid);
    if (existsSync('/proc/self/stat')) {
      expect(procStat(nodePid)?.ppid).toBe(first.npm.pid);
      expect(groupMembers(first.npm.pid!).sort()).toEqual([first.npm.pid!, nodePid].sort());
    }

    // SIGKILL npm: nothing passes it on, so the node must notice by itself, stop, and release the database.
    first.npm.kill('SIGKILL');
    const deadline = Date.now() + 10_000;
    while (isAlive(nodePid) && Date.now() < deadline) await sleep(50);
    expect(isAlive(nodePid), `node ${nodePid} still running 10 s after npm was killed`).toBe(false);
    expect(first.logs.some((e) => e.msg === 'parent process gone: stopping' && e.parentPid === first.npm.pid)).toBe(
      true,
    );
    expect(existsSync(join(datadir, PID_FILE)), 'a clean stop removes the pid file').toBe(false);

    const second = await npmStart(datadir);
    expect(await blockNumber(second.listening.url as string)).toBe('0x0');
    const secondPid = readPidFile(datadir)!;
    // SIGTERM to npm is passed on: the node stops cleanly and npm exits after it.
    const exited = new Promise((resolve) => second.npm.once('exit', resolve));
    second.npm.kill('SIGTERM');
    await exited;
    const stopDeadline = Date.now() + 10_000;
    while (isAlive(secondPid) && Date.now() < stopDeadline) await sleep(50);
    expect(isAlive(secondPid)).toBe(false);
    expect(existsSync(join(datadir, PID_FILE))).toBe(false);
  }, 120_000);
});

describe('a datadir in use', () => {
  it('a second node on it says which datadir, that another svc-node holds it, and its pid', async () => {
    const holder = await startNode({ args: ['--no-p2p'] });
    nodes.push(holder);
    const second = await runCli([
      '--datadir',
      holder.datadir,
      '--http.port',
      '0',
      '--http.addr',
      '127.0.0.1',
      '--no-p2p',
    ]);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(
      `svc-node: cannot start: the datadir ${holder.datadir} is in use by another svc-node (pid ${holder.child.pid}): ` +
        `its chain database ${join(holder.datadir, 'chaindata')} is locked. Stop that node first, or start this one with another --datadir.`,
    );
    // The holder is untouched and still serves.
    expect(await blockNumber(holder.url)).toBe('0x0');
    expect(readPidFile(holder.datadir)).toBe(holder.child.pid);
  }, 60_000);
});

describe('a stop signal during start-up', () => {
  // Retried: whether the signal lands inside the window depends on the machine's timing (a run that misses it says
  // so below); a node that does not stop cleanly fails every attempt.
  it('SIGTERM as soon as the RPC server answers, before start-up has finished, still stops the node cleanly', {
    retry: 3,
    timeout: 60_000,
  }, async () => {
    const datadir = tempDir();
    const port = await freePort();
    // Peering on: it starts after the RPC server already answers, so there is a window before `listening`.
    const args = [
      '--datadir',
      datadir,
      '--http.port',
      String(port),
      '--http.addr',
      '127.0.0.1',
      '--p2p.port',
      '0',
      '--p2p.addr',
      '127.0.0.1',
    ];
    // The TypeScript sources: their slower lazy loads of the p2p modules keep the window open long enough to hit it
    // (the bundle goes from answering to `listening` in a few ms).
    const child = spawn(process.execPath, [...mainEntry('sources'), ...args], {
      cwd: repoRoot,
      env: { ...process.env, NODE_ENV: 'test' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, which afterAll kills should the test fail before the node stops
    });
    groups.push(child);
    const logs: Array<Record<string, unknown>> = [];
    onJsonLines(child.stdout!, (entry) => entry && logs.push(entry));
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const deadline = Date.now() + 30_000;
    for (;;) {
      expect(Date.now(), 'the node never answered').toBeLessThan(deadline);
      if ((await blockNumber(`http://127.0.0.1:${port}/`).catch(() => undefined)) === '0x0') break;
      await sleep(2);
    }
    const startUpFinished = logs.some((e) => e.msg === 'listening');
    child.kill('SIGTERM');
    // A signal in the window must not kill the node outright: it finishes starting, then stops as on any SIGTERM.
    const stillRunning = sleep(20_000).then(() => ({
      code: 'still running 20 s after SIGTERM',
      signal: null,
      logs: logs.map((e) => e.msg),
      stderr,
    }));
    expect(await Promise.race([exited, stillRunning])).toEqual({ code: 0, signal: null });
    expect(logs.some((e) => e.msg === 'shutting down')).toBe(true);
    expect(existsSync(join(datadir, PID_FILE)), 'a clean stop removes the pid file').toBe(false);
    expect(startUpFinished, 'the signal came after start-up had finished: this run did not test the window').toBe(
      false,
    );
  });
});

/**
 * Runs a one-shot svc-node command (import, export) as a process and collects its JSON log lines; `until` may stop
 * it with a signal once a line shows up (Ctrl-C as an operator would press it). Always ends the process it started.
 */
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onJsonLines } from './json-lines.js';
import { mainEntry, repoRoot } from './node-process.js';

export interface CommandRun {
  readonly code: number | null;
  readonly logs: Array<Record<string, unknown>>;
  readonly stderr: string;
}

export interface CommandOptions {
  /** Sends SIGINT the first time a log line passes this test. */
  readonly interruptWhen?: (line: Record<string, unknown>) => boolean;
  readonly timeoutMs?: number;
}

/** `svc-node <args>` with the test nodes' shared Ethash cache directory. */
export function runCommand(args: readonly string[], options: CommandOptions = {}): Promise<CommandRun> {
  const child = spawn(
    process.execPath,
    [...mainEntry(), '--ethash.cachedir', join(tmpdir(), 'svc-node-test-ethash'), ...args],
    { cwd: repoRoot, env: { ...process.env, NODE_ENV: 'test' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const logs: Array<Record<string, unknown>> = [];
  let stderr = '';
  let interrupted = false;
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  onJsonLines(child.stdout!, (parsed, line) => {
    const entry = parsed ?? { raw: line };
    logs.push(entry);
    if (!interrupted && options.interruptWhen?.(entry)) {
      interrupted = true;
      child.kill('SIGINT');
    }
  });
  const timeoutMs = options.timeoutMs ?? 120_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc-node ${args.join(' ')} did not end within ${timeoutMs} ms\nstderr: ${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, logs, stderr });
    });
  });
}

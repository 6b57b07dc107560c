/** Starts svc-node in test mode as a child process on a free loopback port with a temporary data directory. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onJsonLines } from '../test/helpers/json-lines.js';

const repoRoot = fileURLToPath(new URL('../', import.meta.url));

export interface TestNode {
  readonly url: string;
  stop(): Promise<void>;
}

export async function startTestNode(timeoutMs = 60_000): Promise<TestNode> {
  const datadir = mkdtempSync(join(tmpdir(), 'svc-conformance-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(repoRoot, 'src/main.ts'),
      '--testmode',
      '--network',
      'dev',
      '--http.port',
      '0',
      '--http.addr',
      '127.0.0.1',
      '--datadir',
      datadir,
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env } },
  );
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc-node did not start within ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    onJsonLines(child.stdout!, (entry) => {
      if (entry?.msg === 'listening' && typeof entry.url === 'string') {
        clearTimeout(timer);
        resolve(entry.url);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`svc-node exited with ${code} before listening\n${stderr}`));
    });
  });
  return {
    url,
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

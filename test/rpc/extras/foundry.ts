/**
 * Foundry's binaries for the issue-27 tests: Anvil (from @foundry-rs/anvil) started on a free loopback port with the
 * dev chain's id and the dev mnemonic (Anvil's default), and cast (from @foundry-rs/cast). Both come in per-platform
 * packages; `undefined` where this platform has none, so the tests can say why they skip.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../helpers/free-port.js';
import { repoRoot } from '../../helpers/node-process.js';

/**
 * The platform package's binary itself (`@foundry-rs/<name>-<platform>/bin/<name>`), not the node wrapper in
 * node_modules/.bin: one process less per start, and a stop signal reaches the tool directly.
 */
const binary = (name: string): string | undefined => {
  const scope = join(repoRoot, 'node_modules/@foundry-rs');
  const packages = existsSync(scope) ? readdirSync(scope).filter((dir) => dir.startsWith(`${name}-`)) : [];
  return packages.map((dir) => join(scope, dir, 'bin', name)).find((path) => existsSync(path));
};

export const anvilPath = binary('anvil');
export const castPath = binary('cast');

export interface AnvilProcess {
  readonly url: string;
  stop(): Promise<void>;
}

/** Anvil on 127.0.0.1, chain id 1337; `args` adds flags (e.g. `--no-mining`). Resolves once it answers RPC. */
export async function startAnvil(args: readonly string[] = []): Promise<AnvilProcess> {
  if (anvilPath === undefined) throw new Error('anvil is not installed (@foundry-rs/anvil has no binary here)');
  const port = await freePort();
  const child: ChildProcess = spawn(
    anvilPath,
    ['--host', '127.0.0.1', '--port', String(port), '--chain-id', '1337', '--silent', ...args],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}/`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      if (res.ok) return { url, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stop();
  throw new Error(`anvil did not answer on ${url}`);
}

/** One JSON-RPC call; the whole response (result or error). */
export async function rpc(url: string, method: string, params: unknown[] = []): Promise<{ result?: any; error?: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as { result?: any; error?: any };
}

/** The result, or a thrown error naming the JSON-RPC error. */
export async function ok(url: string, method: string, params: unknown[] = []): Promise<any> {
  const answer = await rpc(url, method, params);
  if (answer.error !== undefined) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
  return answer.result;
}

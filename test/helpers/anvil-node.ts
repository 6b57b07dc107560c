/**
 * Anvil (from @foundry-rs/anvil) on a free loopback port, the one launcher of every differential test and bench:
 * the platform package's binary itself (not the Node wrapper in node_modules/.bin, whose death would orphan the
 * binary), chain id 1337 (or the caller's) and the dev mnemonic, plus the caller's flags. Resolves once it answers eth_chainId;
 * `stop()` kills it (call it in `afterAll`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DEV_MNEMONIC } from '../../src/chain/networks/devAccounts.js';
import { freePort } from './free-port.js';
import { repoRoot } from './node-process.js';
import { call } from './rpc.js';

/** `@foundry-rs/<name>-<platform>/bin/<name>`, or undefined where this platform has no package. */
export function foundryBinary(name: string): string | undefined {
  const scope = join(repoRoot, 'node_modules/@foundry-rs');
  const packages = existsSync(scope) ? readdirSync(scope).filter((dir) => dir.startsWith(`${name}-`)) : [];
  return packages.map((dir) => join(scope, dir, 'bin', name)).find((path) => existsSync(path));
}

export interface AnvilNode {
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

export async function startAnvil(
  opts: {
    readonly hardfork?: string;
    readonly args?: readonly string[];
    readonly mnemonic?: string;
    readonly chainId?: number;
  } = {},
) {
  const anvil = foundryBinary('anvil');
  if (anvil === undefined) throw new Error('anvil is not installed (@foundry-rs/anvil has no binary here)');
  const port = await freePort();
  const child = spawn(
    anvil,
    [
      ...[
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--chain-id',
        String(opts.chainId ?? 1337),
        '--mnemonic',
        opts.mnemonic ?? DEV_MNEMONIC,
      ],
      ...(opts.hardfork === undefined ? [] : ['--hardfork', opts.hardfork]),
      '--silent',
      ...(opts.args ?? []),
    ],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}/`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`anvil exited with ${child.exitCode}`);
    try {
      await call(url, 'eth_chainId', [], 1000);
      return { url, child, stop } satisfies AnvilNode;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await stop();
  throw new Error(`anvil did not answer on ${url} within 30 s`);
}

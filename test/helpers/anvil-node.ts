/**
 * Starts Anvil (from @foundry-rs/anvil) on a free loopback port for differential tests: the dev chain's mnemonic and
 * chain id, automine, a hardfork chosen by the test. `stop()` kills it; call it in `afterAll`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { DEV_MNEMONIC } from '../../src/chain/networks/devAccounts.js';
import { freePort } from './free-port.js';
import { repoRoot } from './node-process.js';

export interface AnvilNode {
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

export async function startAnvil(opts: {
  readonly hardfork: string;
  readonly args?: readonly string[];
}): Promise<AnvilNode> {
  const port = await freePort();
  const child = spawn(
    join(repoRoot, 'node_modules/.bin/anvil'),
    [
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--chain-id',
      '1337',
      '--mnemonic',
      DEV_MNEMONIC,
      '--hardfork',
      opts.hardfork,
      '--gas-limit',
      '30000000',
      ...(opts.args ?? []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const url = `http://127.0.0.1:${port}/`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`anvil did not start within 30 s:\n${output}`)), 30_000);
    const onData = (data: Buffer) => {
      output += data.toString();
      if (output.includes('Listening on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`anvil exited with ${code}:\n${output}`));
    });
  }).catch(async (err) => {
    await stop();
    throw err;
  });
  child.stdout?.resume();
  child.stderr?.resume();
  return { url, child, stop };
}

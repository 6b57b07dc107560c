/**
 * Anvil as the reference node for the tracing tests and bench: the real binary from @foundry-rs/anvil on a free
 * loopback port, with the dev chain's mnemonic and chain id, hardfork Shanghai (the EVM closest to ETC Spiral:
 * PUSH0, warm coinbase, initcode limit, EIP-3529 refunds, SELFDESTRUCT still deleting; its extra, BASEFEE, is never
 * used here) and base fee 0, so a legacy transaction's fee all goes to the coinbase as on ETC.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../helpers/free-port.js';
import { repoRoot } from '../helpers/node-process.js';
import { call } from '../helpers/rpc.js';

export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';
export const ANVIL_HARDFORK = 'shanghai';

export interface AnvilProcess {
  readonly url: string;
  stop(): Promise<void>;
}

export async function startAnvil(): Promise<AnvilProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    join(repoRoot, 'node_modules/.bin/anvil'),
    [
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--mnemonic',
      DEV_MNEMONIC,
      '--chain-id',
      '1337',
      '--hardfork',
      ANVIL_HARDFORK,
      '--block-base-fee-per-gas',
      '0',
      '--gas-limit',
      '30000000',
      '--steps-tracing',
      '--silent',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const url = `http://127.0.0.1:${port}/`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`anvil exited with ${child.exitCode}`);
    try {
      await call(url, 'eth_chainId', [], 1000);
      return { url, stop };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await stop();
  throw new Error('anvil did not answer within 20 s');
}

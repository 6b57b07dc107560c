/**
 * `--state <file>` keeps a dev chain across runs as Anvil's does: a token deployed and moved, an ether transfer and
 * the block number survive a stop by SIGTERM and a stop by Ctrl-C (SIGINT), each run on a fresh datadir so only the
 * file carries them. A file that is no state stops the start, naming the file and what is wrong, and stays as it
 * was. `--dump-state` with `--state-interval` writes the file while the node runs, whole each time; and Anvil's own
 * `--load-state` reads what svc-node wrote.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AbiCoder, Interface } from 'ethers';
import { afterAll, describe, expect, it } from 'vitest';
import { foundryBinary, startAnvil } from '../helpers/anvil-node.js';
import { runCli, startNode, type NodeProcess } from '../helpers/node-process.js';
import { call } from '../helpers/rpc.js';
import { Token } from '../rpc/contracts.js';

const FUNDED = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const HOLDER = '0x5555555555555555555555555555555555555555';
const PAYEE = '0x7777777777777777777777777777777777777777';
const token = new Interface(Token.abi);
const dir = mkdtempSync(join(tmpdir(), 'svc-node-state-file-'));
const started: NodeProcess[] = [];

afterAll(async () => {
  await Promise.all(started.map((n) => n.stop()));
  rmSync(dir, { recursive: true, force: true });
});

async function start(args: string[]): Promise<NodeProcess> {
  const node = await startNode({ args: ['--no-p2p', ...args] });
  started.push(node);
  return node;
}

/** Stops the node with `signal` and waits for it to exit (its state file is written on the way out). */
async function stopWith(node: NodeProcess, signal: NodeJS.Signals): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => node.child.once('exit', (code) => resolve(code)));
  node.child.kill(signal);
  return exited;
}

async function receiptOf(url: string, hash: string): Promise<{ contractAddress: string; status: string }> {
  for (;;) {
    const receipt = await call<{ contractAddress: string; status: string } | null>(url, 'eth_getTransactionReceipt', [
      hash,
    ]);
    if (receipt) return receipt;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What a restarted chain must still show: balances, the contract's code and storage (a mapping's slot), nonces. */
async function snapshot(url: string, contract: string) {
  const balanceOf = (who: string) =>
    call<string>(url, 'eth_call', [{ to: contract, data: token.encodeFunctionData('balanceOf', [who]) }, 'latest']);
  return {
    block: await call<string>(url, 'eth_blockNumber', []),
    funded: await call<string>(url, 'eth_getBalance', [FUNDED, 'latest']),
    payee: await call<string>(url, 'eth_getBalance', [PAYEE, 'latest']),
    nonce: await call<string>(url, 'eth_getTransactionCount', [FUNDED, 'latest']),
    code: await call<string>(url, 'eth_getCode', [contract, 'latest']),
    slot0: await call<string>(url, 'eth_getStorageAt', [contract, '0x0', 'latest']),
    holderTokens: await balanceOf(HOLDER),
    fundedTokens: await balanceOf(FUNDED),
  };
}

describe('--state', () => {
  const file = join(dir, 'state.json');
  let contract = '';

  it('survives a stop by SIGTERM and one by Ctrl-C, on fresh datadirs', async () => {
    const first = await start(['--state', file]);
    const deploy = Token.bytecode + AbiCoder.defaultAbiCoder().encode(['uint256'], [1_000_000n]).slice(2);
    const deployed = await receiptOf(
      first.url,
      await call(first.url, 'eth_sendTransaction', [{ from: FUNDED, data: deploy }]),
    );
    contract = deployed.contractAddress;
    await receiptOf(
      first.url,
      await call(first.url, 'eth_sendTransaction', [
        { from: FUNDED, to: contract, data: token.encodeFunctionData('transfer', [HOLDER, 250n]) },
      ]),
    );
    await receiptOf(
      first.url,
      await call(first.url, 'eth_sendTransaction', [{ from: FUNDED, to: PAYEE, value: '0x1234' }]),
    );
    const before = await snapshot(first.url, contract);
    expect(before.holderTokens).toBe(`0x${(250).toString(16).padStart(64, '0')}`);
    expect(before.code.length).toBeGreaterThan(2);
    expect(await stopWith(first, 'SIGTERM')).toBe(0);
    expect(existsSync(file)).toBe(true);

    const second = await start(['--state', file]);
    expect(second.datadir).not.toBe(first.datadir);
    expect(await snapshot(second.url, contract)).toEqual(before);
    // More on top, then Ctrl-C: the next run sees both.
    await receiptOf(
      second.url,
      await call(second.url, 'eth_sendTransaction', [
        { from: FUNDED, to: contract, data: token.encodeFunctionData('transfer', [HOLDER, 5n]) },
      ]),
    );
    const later = await snapshot(second.url, contract);
    expect(later.block).not.toBe(before.block);
    expect(await stopWith(second, 'SIGINT')).toBe(0);

    const third = await start(['--state', file]);
    expect(await snapshot(third.url, contract)).toEqual(later);
    expect(later.holderTokens).toBe(`0x${(255).toString(16).padStart(64, '0')}`);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('loads in Anvil (--load-state) with the same balances and code', async () => {
    if (foundryBinary('anvil') === undefined) return;
    const anvil = await startAnvil({ args: ['--load-state', file] });
    try {
      const url = anvil.url;
      expect(await call(url, 'eth_getBalance', [PAYEE, 'latest'])).toBe('0x1234');
      const ours = await snapshot(started.at(-1)!.url, contract);
      expect(await call(url, 'eth_getCode', [contract, 'latest'])).toBe(ours.code);
      expect(
        await call(url, 'eth_call', [
          { to: contract, data: token.encodeFunctionData('balanceOf', [HOLDER]) },
          'latest',
        ]),
      ).toBe(ours.holderTokens);
    } finally {
      await anvil.stop();
    }
  });

  it('refuses a file that is no state, naming it and the reason, and leaves it as it was', async () => {
    const corrupt = join(dir, 'corrupt.json');
    const text = '{"accounts": {"0x12": {"balance": "0x1"}';
    writeFileSync(corrupt, text);
    const datadir = join(dir, 'corrupt-datadir');
    const run = await runCli(['--no-p2p', '--http.port', '0', '--datadir', datadir, '--state', corrupt]);
    expect(run.code).not.toBe(0);
    const said = run.stdout + run.stderr;
    expect(said).toContain(corrupt);
    expect(said).toMatch(/no state this node can load: not an Anvil state dump \(.*JSON/);
    expect(readFileSync(corrupt, 'utf8')).toBe(text);

    // Well-formed JSON with a bad entry: named too.
    writeFileSync(corrupt, '{"accounts": {"0x12": {"balance": "0x1"}}}');
    const again = await runCli(['--no-p2p', '--http.port', '0', '--datadir', datadir, '--state', corrupt]);
    expect(again.code).not.toBe(0);
    expect(again.stdout + again.stderr).toContain(`${corrupt} is no state this node can load: account 0x12`);
    expect(readFileSync(corrupt, 'utf8')).toBe('{"accounts": {"0x12": {"balance": "0x1"}}}');
  });
});

describe('--dump-state with --state-interval', () => {
  it('writes the file while the node runs, a whole dump each time', async () => {
    const file = join(dir, 'interval.json');
    const node = await start(['--dump-state', file, '--state-interval', '0.2']);
    await receiptOf(
      node.url,
      await call(node.url, 'eth_sendTransaction', [{ from: FUNDED, to: PAYEE, value: '0x99' }]),
    );
    // Written by the interval, not the stop: the node still runs. Polled until the transfer shows.
    let dump: { accounts: Record<string, { balance: string }>; best_block_number: number } | undefined;
    while (dump?.accounts[PAYEE]?.balance !== '0x99') {
      await new Promise((r) => setTimeout(r, 100));
      if (existsSync(file)) dump = JSON.parse(readFileSync(file, 'utf8'));
    }
    expect(node.child.exitCode).toBeNull();
    expect(dump.best_block_number).toBe(1);
    node.child.kill('SIGKILL');
    // Killed without a stop: the last interval's file is whole.
    expect(JSON.parse(readFileSync(file, 'utf8')).accounts[PAYEE].balance).toBe('0x99');
  });
});

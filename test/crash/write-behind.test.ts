/**
 * A kill -9 in a burst of sends (at its middle answer, the rest in flight), with and without `db.write-behind`: the
 * datadir passes the offline checker (head, canonical index, state, log/address/tx indexes all whole), a restart
 * serves that head, and of the burst the transactions kept are a prefix by nonce, each in the canonical block its
 * receipt names; the chain then continues from there. Write-behind (the dev default) may lose an unwritten tail,
 * answered or not, never a block in the middle; durable writes (the mordor/etc default) keep every answered one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transaction, Wallet } from 'ethers';
import { afterAll, describe, expect, it } from 'vitest';
import { checkDatadirOffline } from '../../scripts/crashloop/offline-check.js';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { call } from '../helpers/rpc.js';

const BURST = 40;
const sender = new Wallet(DEV_ACCOUNTS[2]!.privateKey);
const recipient = DEV_ACCOUNTS[3]!.address;
const started: NodeProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const node of started) await node.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function start(datadir: string, writeBehind: boolean): Promise<NodeProcess> {
  const node = await startNode({
    args: ['--datadir', datadir, '--no-p2p'],
    env: { SVC_NODE_DB_WRITE_BEHIND: String(writeBehind) },
    timeoutMs: 90_000,
  });
  started.push(node);
  return node;
}

async function signTransfers(url: string, firstNonce: number, count: number): Promise<string[]> {
  const chainId = BigInt(await call<string>(url, 'eth_chainId'));
  const gasPrice = BigInt(await call<string>(url, 'eth_gasPrice'));
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      sender.signTransaction({
        type: 0,
        chainId,
        nonce: firstNonce + i,
        to: recipient,
        value: 1n,
        gasLimit: 21_000n,
        gasPrice,
      }),
    ),
  );
}

interface Receipt {
  readonly status: string;
  readonly blockHash: string;
  readonly blockNumber: string;
}

/**
 * Sends a burst at once (each send answered once mined), SIGKILLs the node at the middle answer and restarts it;
 * returns how many of the burst it kept and the nonces answered before the kill.
 */
async function burstKillRestart(writeBehind: boolean): Promise<{ kept: number; answered: number[] }> {
  const datadir = mkdtempSync(join(tmpdir(), 'svc-node-write-behind-'));
  dirs.push(datadir);
  const node = await start(datadir, writeBehind);
  const raws = await signTransfers(node.url, 0, BURST);
  const hashes = raws.map((raw) => Transaction.from(raw).hash!);
  const exited = new Promise((resolve) => node.child.once('exit', resolve));
  const answered: number[] = [];
  let killed = false;
  await new Promise<void>((resolve) => {
    for (const [nonce, raw] of raws.entries()) {
      call<string>(node.url, 'eth_sendRawTransaction', [raw]).then(
        () => {
          if (killed) return;
          answered.push(nonce);
          if (answered.length < BURST / 2) return;
          killed = true;
          node.child.kill('SIGKILL');
          resolve();
        },
        () => undefined, // cut off by the kill
      );
    }
  });
  await exited;

  const offline = await checkDatadirOffline(datadir);
  expect(Object.values(offline.failures).flat()).toEqual([]);

  const restarted = await start(datadir, writeBehind);
  const head = await call<{ number: string; hash: string }>(restarted.url, 'eth_getBlockByNumber', ['latest', false]);
  expect(head.hash).toBe(offline.head?.hash);
  const kept = Number(await call<string>(restarted.url, 'eth_getTransactionCount', [sender.address, 'latest']));
  const receipts = await Promise.all(
    hashes.map((hash) => call<Receipt | null>(restarted.url, 'eth_getTransactionReceipt', [hash])),
  );
  // A prefix by nonce survives; nothing after a lost transaction does.
  expect(receipts.map((r) => r !== null)).toEqual(hashes.map((_, nonce) => nonce < kept));
  for (const receipt of receipts.slice(0, kept)) {
    expect(receipt!.status).toBe('0x1');
    const block = await call<{ hash: string }>(restarted.url, 'eth_getBlockByNumber', [receipt!.blockNumber, false]);
    expect(block.hash).toBe(receipt!.blockHash);
    expect(BigInt(receipt!.blockNumber)).toBeLessThanOrEqual(BigInt(head.number));
  }

  // The chain goes on from the stored head: the next nonce is the first one not kept.
  const [next] = await signTransfers(restarted.url, kept, 1);
  const hash = await call<string>(restarted.url, 'eth_sendRawTransaction', [next]);
  const receipt = await call<Receipt>(restarted.url, 'eth_getTransactionReceipt', [hash]);
  expect(BigInt(receipt.blockNumber)).toBe(BigInt(head.number) + 1n);
  return { kept, answered };
}

describe('kill -9 right after a burst of sends', () => {
  it('write-behind (dev default): a consistent stored head, at most the unwritten tail lost', async () => {
    const { kept } = await burstKillRestart(true);
    expect(kept).toBeLessThanOrEqual(BURST);
  }, 240_000);

  it('durable writes (mordor/etc default): every answered transaction is kept', async () => {
    const { kept, answered } = await burstKillRestart(false);
    expect(answered.length).toBe(BURST / 2);
    expect(answered.filter((nonce) => nonce >= kept)).toEqual([]);
  }, 240_000);
});

/**
 * A crash while mining: the node mines continuously (an empty block every 50 ms plus a stream of signed
 * transfers), is killed with SIGKILL, and must restart on a consistent head: the head block readable by
 * number and hash, its state readable, every block and receipt it reported before the kill still there,
 * and the chain continuing on top of it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { afterAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { DEV_CHAIN_ID, GWEI, devWallet, providerFor, rpc, waitForReceipt } from './eth/read-helpers.js';

const datadir = mkdtempSync(join(tmpdir(), 'svc-node-sigkill-'));
let node: NodeProcess | undefined;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterAll(async () => {
  await node?.stop();
  rmSync(datadir, { recursive: true, force: true });
});

async function result(url: string, method: string, params: unknown[]): Promise<any> {
  const answer = await rpc(url, method, params);
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

describe('SIGKILL while mining', () => {
  it('restarts on a consistent head and continues', async () => {
    node = await startNode({ args: ['--datadir', datadir], env: { SVC_NODE_MINING_BLOCK_TIME: '50ms' } });
    const url = node.url;
    const sender = devWallet(3, providerFor(url));
    const recipient = Wallet.createRandom().address;

    // Let blocks flow, with transfers going in, and remember what the node reported as mined.
    const first = await sender.sendTransaction({
      type: 0,
      to: recipient,
      value: 1n,
      gasLimit: 21_000n,
      gasPrice: GWEI,
    });
    await waitForReceipt(sender.provider as never, first.hash);
    let nonce = 1;
    const sent: string[] = [];
    const stream = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const raw = await sender.signTransaction({
          type: 0,
          chainId: DEV_CHAIN_ID,
          nonce: nonce++,
          to: recipient,
          value: 1n,
          gasLimit: 21_000n,
          gasPrice: GWEI,
        });
        const answer = await rpc(url, 'eth_sendRawTransaction', [raw]).catch(() => undefined);
        if (answer?.result) sent.push(answer.result);
      }
    };
    await stream(20);
    while (BigInt(await result(url, 'eth_blockNumber', [])) < 8n) await sleep(50);
    const seenHead = await result(url, 'eth_getBlockByNumber', ['latest', false]);
    const seenReceipts = (await Promise.all(sent.map((h) => result(url, 'eth_getTransactionReceipt', [h])))).filter(
      (r) => r !== null,
    );
    expect(seenReceipts.length).toBeGreaterThan(0);

    // Kill it while transactions keep arriving and blocks keep being sealed.
    const inFlight = stream(40);
    await sleep(120);
    const exited = new Promise((resolve) => node!.child.once('exit', resolve));
    node.child.kill('SIGKILL');
    await exited;
    await inFlight;
    (sender.provider as { destroy(): void }).destroy();

    node = await startNode({ args: ['--datadir', datadir] });
    const head = await result(node.url, 'eth_getBlockByNumber', ['latest', true]);
    expect(head).not.toBeNull();
    expect(await result(node.url, 'eth_getBlockByHash', [head.hash, true])).toEqual(head);
    expect(BigInt(head.number)).toBeGreaterThanOrEqual(BigInt(seenHead.number));
    // The head's state is there: its post-state reads work at its own number, and so does its parent's.
    expect(BigInt(await result(node.url, 'eth_getBalance', [head.miner, head.number]))).toBeGreaterThan(0n);
    await result(node.url, 'eth_getBalance', [recipient, head.number]);
    const parent = await result(node.url, 'eth_getBlockByNumber', [
      `0x${(BigInt(head.number) - 1n).toString(16)}`,
      false,
    ]);
    expect(parent.hash).toBe(head.parentHash);
    expect(await result(node.url, 'eth_getBlockByHash', [seenHead.hash, false])).toEqual(seenHead);
    for (const receipt of seenReceipts) {
      expect(await result(node.url, 'eth_getTransactionReceipt', [receipt.transactionHash])).toEqual(receipt);
    }
    const receipts = await result(node.url, 'eth_getBlockReceipts', [head.hash]);
    expect(receipts).toHaveLength(head.transactions.length);

    // The chain continues on the recovered head.
    const provider = providerFor(node.url);
    const resumed = devWallet(3, provider);
    const next = await resumed.sendTransaction({
      type: 0,
      to: recipient,
      value: 1n,
      gasLimit: 21_000n,
      gasPrice: GWEI,
    });
    const receipt = await waitForReceipt(provider, next.hash);
    expect(receipt.blockNumber).toBeGreaterThan(Number(head.number));
    expect(receipt.status).toBe(1);
    provider.destroy();
  }, 120_000);
});

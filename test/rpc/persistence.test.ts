/**
 * Restart persistence through the node process: blocks mined from signed transfers, a clean stop (SIGTERM)
 * and a start on the same data directory leave head, balances (now and historical), receipts, transaction
 * lookups and raw transactions exactly as they were, and the chain goes on from there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { afterAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { GWEI, devWallet, providerFor, rpc, waitForReceipt } from './eth/read-helpers.js';

const datadir = mkdtempSync(join(tmpdir(), 'svc-node-persist-'));
let node: NodeProcess | undefined;

afterAll(async () => {
  await node?.stop();
  rmSync(datadir, { recursive: true, force: true });
});

/** Everything a restart must keep, read through JSON-RPC. */
async function snapshot(url: string, hashes: readonly string[], addresses: readonly string[], olderBlock: string) {
  const call = async (method: string, params: unknown[]) => {
    const answer = await rpc(url, method, params);
    if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
    return answer.result;
  };
  const head = await call('eth_getBlockByNumber', ['latest', true]);
  return {
    blockNumber: await call('eth_blockNumber', []),
    head,
    headByHash: await call('eth_getBlockByHash', [head.hash, false]),
    receipts: await Promise.all(hashes.map((h) => call('eth_getTransactionReceipt', [h]))),
    transactions: await Promise.all(hashes.map((h) => call('eth_getTransactionByHash', [h]))),
    raw: await Promise.all(hashes.map((h) => call('eth_getRawTransactionByHash', [h]))),
    balances: await Promise.all(addresses.map((a) => call('eth_getBalance', [a, 'latest']))),
    olderBalances: await Promise.all(addresses.map((a) => call('eth_getBalance', [a, olderBlock]))),
    nonces: await Promise.all(addresses.map((a) => call('eth_getTransactionCount', [a, 'latest']))),
    blockReceipts: await call('eth_getBlockReceipts', [head.hash]),
  };
}

describe('restart on the same data directory', () => {
  it('keeps head, balances, receipts and transaction lookups, and continues the chain', async () => {
    node = await startNode({ args: ['--datadir', datadir] });
    let provider = providerFor(node.url);
    const sender = devWallet(2, provider);
    const recipient = Wallet.createRandom().address;
    const hashes: string[] = [];
    let firstBlock = 0;
    for (let i = 1; i <= 3; i++) {
      const tx = await sender.sendTransaction({
        type: 0,
        to: recipient,
        value: BigInt(i) * 10n ** 17n,
        gasLimit: 21_000n,
        gasPrice: GWEI,
      });
      const receipt = await waitForReceipt(provider, tx.hash);
      if (i === 1) firstBlock = receipt.blockNumber;
      hashes.push(tx.hash);
    }
    const addresses = [sender.address, recipient];
    const before = await snapshot(node.url, hashes, addresses, `0x${firstBlock.toString(16)}`);
    expect(before.balances[1]).toBe(`0x${(6n * 10n ** 17n).toString(16)}`);
    expect(before.olderBalances[1]).toBe(`0x${(10n ** 17n).toString(16)}`);
    expect(BigInt(before.blockNumber)).toBeGreaterThanOrEqual(3n);
    provider.destroy();
    await node.stop();

    node = await startNode({ args: ['--datadir', datadir] });
    expect(await snapshot(node.url, hashes, addresses, `0x${firstBlock.toString(16)}`)).toEqual(before);

    // The chain goes on from the stored head.
    provider = providerFor(node.url);
    const next = await devWallet(2, provider).sendTransaction({
      type: 0,
      to: recipient,
      value: 1n,
      gasLimit: 21_000n,
      gasPrice: GWEI,
    });
    expect(next.nonce).toBe(3);
    const receipt = await waitForReceipt(provider, next.hash);
    expect(receipt.blockNumber).toBe(Number(before.blockNumber) + 1);
    expect((await provider.getBlock(receipt.blockNumber))!.parentHash).toBe(before.head.hash);
    provider.destroy();
  }, 90_000);
});

/**
 * `pending` and pooled transactions, on a dev node whose miner is off so that transactions stay in the pool:
 * the pending nonce counts them, a pooled transaction has null block fields and no receipt, and the pending
 * block is the one the miner would build from them.
 */
import { Wallet, type JsonRpcProvider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, httpTransport, type RpcClient } from '../../../clients/typescript/src/client.js';
import type { Block, Transaction as TxJson } from '../../../src/generated/types.js';
import { startNode, type NodeProcess } from '../../helpers/node-process.js';
import { GWEI, devWallet, providerFor } from './read-helpers.js';

let node: NodeProcess;
let provider: JsonRpcProvider;
let client: RpcClient;

beforeAll(async () => {
  node = await startNode({ env: { SVC_NODE_MINING_MINING_ENABLED: 'false' } });
  provider = providerFor(node.url);
  client = createClient(httpTransport(node.url));
});

afterAll(async () => {
  provider?.destroy();
  await client?.close();
  await node?.stop();
});

describe('pending', () => {
  it('pooled transactions: pending nonce, null block fields, no receipt, in the pending block', async () => {
    const sender = devWallet(1, provider);
    const to = Wallet.createRandom().address;
    const firstRaw = await sender.signTransaction({
      type: 0,
      to,
      value: 1n,
      nonce: 0,
      chainId: 1337n,
      gasLimit: 21_000n,
      gasPrice: GWEI,
    });
    const first = await provider.broadcastTransaction(firstRaw);
    const second = await sender.sendTransaction({ type: 0, to, value: 2n, gasLimit: 21_000n, gasPrice: GWEI });
    expect(second.nonce).toBe(1);

    const address = sender.address as `0x${string}`;
    expect(await client.eth_getTransactionCount(address, 'latest')).toBe('0x0');
    expect(await client.eth_getTransactionCount(address, 'pending')).toBe('0x2');
    expect(await client.eth_blockNumber()).toBe('0x0');

    const pooled = (await client.eth_getTransactionByHash(first.hash as `0x${string}`)) as TxJson;
    expect(pooled).toMatchObject({
      hash: first.hash,
      blockHash: null,
      blockNumber: null,
      transactionIndex: null,
      from: address.toLowerCase(),
      value: '0x1',
    });
    const parsed = (await provider.getTransaction(second.hash))!;
    expect(parsed.blockNumber).toBeNull();
    expect(parsed.nonce).toBe(1);
    expect(await client.eth_getTransactionReceipt(first.hash as `0x${string}`)).toBeNull();
    expect(await client.eth_getRawTransactionByHash(first.hash as `0x${string}`)).toBe(firstRaw);

    const pending = (await client.eth_getBlockByNumber('pending', false)) as Block;
    expect(pending).toMatchObject({
      number: '0x1',
      transactions: [first.hash, second.hash],
      nonce: '0x0000000000000000',
    });
    expect(pending.gasUsed).toBe('0xa410');
    expect(await client.eth_getBlockTransactionCountByNumber('pending')).toBe('0x2');
    const inPending = (await client.eth_getTransactionByBlockNumberAndIndex('pending', '0x1')) as TxJson;
    expect(inPending).toMatchObject({ hash: second.hash, blockHash: null });
    const receipts = (await client.eth_getBlockReceipts('pending'))!;
    expect(receipts.map((r) => r.status)).toEqual(['0x1', '0x1']);

    // State reads at `pending` read the head's state: the pool is not applied.
    expect(await client.eth_getBalance(to as `0x${string}`, 'pending')).toBe('0x0');
  });
});

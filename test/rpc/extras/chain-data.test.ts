/**
 * eth_feeHistory and eth_maxPriorityFeePerGas on a dev chain (no EIP-1559: base fees 0, ratios and gas-price
 * percentiles from the blocks), eth_getHeaderBy* (the block without its body) and debug_getRaw* (the encodings hash
 * to the block, transaction and receipts roots the node reports), checked independently of the node's own codec.
 */
import { RLP } from '@ethereumjs/rlp';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { keccak256 } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../../src/chain/networks/devAccounts.js';
import { startNode, type NodeProcess } from '../../helpers/node-process.js';
import { DEV_CHAIN_ID, GWEI, initCode, providerFor, sendRawBatch } from '../eth/read-helpers.js';
import { Wallet } from 'ethers';
import { ok, rpc } from './foundry.js';

let node: NodeProcess;
/** The block holding two transfers at 1 and 3 gwei, and the one holding a contract creation with a log. */
let pricedBlock: any;
let createBlock: any;
const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex.slice(2), 'hex'));

beforeAll(async () => {
  node = await startNode();
  const provider = providerFor(node.url);
  const [a, b] = [1, 2].map((i) => new Wallet(DEV_ACCOUNTS[i].privateKey, provider));
  const to = Wallet.createRandom().address;
  const transfer = (w: Wallet, gasPrice: bigint) =>
    w.signTransaction({ type: 0, chainId: DEV_CHAIN_ID, nonce: 0, to, value: 1n, gasLimit: 21_000n, gasPrice });
  const [cheap] = await sendRawBatch(node.url, [await transfer(a, GWEI), await transfer(b, 3n * GWEI)]);
  const created = await a.signTransaction({
    type: 0,
    chainId: DEV_CHAIN_ID,
    nonce: 1,
    data: initCode(),
    gasLimit: 200_000n,
    gasPrice: 2n * GWEI,
  });
  const [creation] = await sendRawBatch(node.url, [created]);
  provider.destroy();
  const blockOf = async (hash: string) =>
    ok(node.url, 'eth_getBlockByHash', [(await ok(node.url, 'eth_getTransactionReceipt', [hash])).blockHash, false]);
  pricedBlock = await blockOf(cheap);
  createBlock = await blockOf(creation);
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

describe('eth_feeHistory / eth_maxPriorityFeePerGas', () => {
  it('base fees 0, gasUsedRatio gasUsed / gasLimit, rewards at gas-weighted percentiles of the gas prices', async () => {
    const history = await ok(node.url, 'eth_feeHistory', [pricedBlock.number, pricedBlock.number, [10, 50, 60, 100]]);
    expect(history.oldestBlock).toBe('0x1');
    expect(history.baseFeePerGas).toEqual(['0x0', '0x0']);
    expect(history.gasUsedRatio).toEqual([Number(pricedBlock.gasUsed) / Number(pricedBlock.gasLimit)]);
    // Two 21,000-gas transfers: up to half the block's gas the 1-gwei one was paying, beyond it the 3-gwei one.
    expect(history.reward).toEqual([['0x3b9aca00', '0x3b9aca00', '0xb2d05e00', '0xb2d05e00']]);
  });

  it('a range clipped at genesis, empty blocks rewarded 0, no reward without percentiles', async () => {
    const history = await ok(node.url, 'eth_feeHistory', [100, 'latest', [50]]);
    expect(history.oldestBlock).toBe('0x0');
    expect(history.reward).toEqual([['0x0'], ['0x3b9aca00'], ['0x77359400']]);
    expect(history.baseFeePerGas).toHaveLength(4);
    expect(history.gasUsedRatio[0]).toBe(0);
    expect(await ok(node.url, 'eth_feeHistory', ['0x1', 'latest'])).not.toHaveProperty('reward');
  });

  it('refusals: beyond the head (-32000), percentiles not ascending or above 100 (-32602)', async () => {
    expect((await rpc(node.url, 'eth_feeHistory', ['0x1', '0x64'])).error).toMatchObject({
      code: -32000,
      message: 'request beyond head block: requested 100, head 2',
    });
    expect((await rpc(node.url, 'eth_feeHistory', ['0x1', 'latest', [50, 10]])).error?.code).toBe(-32602);
    expect((await rpc(node.url, 'eth_feeHistory', ['0x1', 'latest', [101]])).error?.code).toBe(-32602);
  });

  it('eth_maxPriorityFeePerGas equals eth_gasPrice', async () => {
    expect(await ok(node.url, 'eth_maxPriorityFeePerGas')).toBe(await ok(node.url, 'eth_gasPrice'));
  });
});

describe('eth_getHeaderByNumber / eth_getHeaderByHash', () => {
  it("the block's fields without transactions, uncles and size; null for an unknown block", async () => {
    const { transactions, uncles, size, ...expected } = pricedBlock;
    expect(await ok(node.url, 'eth_getHeaderByNumber', [pricedBlock.number])).toEqual(expected);
    expect(await ok(node.url, 'eth_getHeaderByHash', [pricedBlock.hash])).toEqual(expected);
    expect(await ok(node.url, 'eth_getHeaderByNumber', ['0x64'])).toBeNull();
    expect(await ok(node.url, 'eth_getHeaderByHash', [`0x${'ab'.repeat(32)}`])).toBeNull();
  });
});

describe('debug_getRaw*', () => {
  it('debug_getRawHeader hashes to the block hash; debug_getRawBlock holds that header and the transactions', async () => {
    const header = await ok(node.url, 'debug_getRawHeader', [pricedBlock.number]);
    expect(keccak256(header)).toBe(pricedBlock.hash);
    const block = RLP.decode(bytes(await ok(node.url, 'debug_getRawBlock', [pricedBlock.hash]))) as Uint8Array[][];
    expect(Buffer.from(RLP.encode(block[0])).toString('hex')).toBe(header.slice(2));
    expect(block[1].map((tx) => keccak256(RLP.encode(tx)))).toEqual(pricedBlock.transactions);
    expect((await rpc(node.url, 'debug_getRawBlock', ['0x64'])).error?.code).toBe(-32001);
  });

  it('debug_getRawTransaction hashes to the transaction hash; null for an unknown one', async () => {
    const hash = createBlock.transactions[0];
    expect(keccak256(await ok(node.url, 'debug_getRawTransaction', [hash]))).toBe(hash);
    expect(await ok(node.url, 'debug_getRawTransaction', [`0x${'cd'.repeat(32)}`])).toBeNull();
  });

  it('debug_getRawReceipts: their ordered trie is the receiptsRoot; the fields are the receipt', async () => {
    for (const block of [pricedBlock, createBlock]) {
      const receipts: string[] = await ok(node.url, 'debug_getRawReceipts', [block.hash]);
      expect(receipts).toHaveLength(block.transactions.length);
      const trie = new MerklePatriciaTrie();
      for (const [i, receipt] of receipts.entries()) await trie.put(RLP.encode(i), bytes(receipt));
      expect(`0x${Buffer.from(trie.root()).toString('hex')}`).toBe(block.receiptsRoot);
    }
    const [raw] = await ok(node.url, 'debug_getRawReceipts', [createBlock.number]);
    const [status, cumulativeGas, bloom, logs] = RLP.decode(bytes(raw)) as [Uint8Array, Uint8Array, Uint8Array, any[]];
    const receipt = await ok(node.url, 'eth_getTransactionReceipt', [createBlock.transactions[0]]);
    expect(Buffer.from(status).toString('hex')).toBe('01');
    expect(BigInt(`0x${Buffer.from(cumulativeGas).toString('hex')}`)).toBe(BigInt(receipt.cumulativeGasUsed));
    expect(`0x${Buffer.from(bloom).toString('hex')}`).toBe(receipt.logsBloom);
    expect(logs).toHaveLength(receipt.logs.length);
  });
});

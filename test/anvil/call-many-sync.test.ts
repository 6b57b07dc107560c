/**
 * eth_callMany and eth_sendRawTransactionSync on svc-node (dev) beside Anvil 1.7.1.
 *
 * eth_sendRawTransactionSync: the same signed transaction on both (chain id 1337, the same key) gives the same
 * receipt; with mining off, both answer error 4 with the transaction hash once the wait is over, and a block mined
 * while a request waits answers it with the receipt.
 *
 * eth_callMany came to Anvil after 1.7.1 (foundry #15437), which answers -32601; its shape follows Anvil's source
 * (values, or errors, per call and bundle; number and time + 1 per bundle). The calls' outputs are checked against
 * Anvil 1.7.1's eth_simulateV1 running the same calls as blocks, where each call sees the state the previous left.
 */
import { HDNodeWallet, keccak256 } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_MNEMONIC } from '../../src/chain/networks/devAccounts.js';
import { startAnvil, type AnvilNode } from '../helpers/anvil-node.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { post, request } from '../helpers/rpc.js';

const word = (n: bigint | number) => BigInt(n).toString(16).padStart(64, '0');
const slot = (n: number) => `0x${word(n)}`;
const STORE = '0x00000000000000000000000000000000000000c4';
const REVERTER = '0x00000000000000000000000000000000000000c5';
const NUMBER = '0x00000000000000000000000000000000000000c6';
const SINK = '0x00000000000000000000000000000000000000c3';
/** With calldata: SSTORE(0, word); without: return SLOAD(0). */
const STORE_CODE = '0x3615600c57600035600055005b60005460005260206000f3';
/** REVERT with Error("no") (selector 08c379a0, offset 0x20, length 2, "no"). */
const REVERT_CODE =
  '0x7f08c379a00000000000000000000000000000000000000000000000000000000060005260206004526002602452' +
  '7f6e6f00000000000000000000000000000000000000000000000000000000000060445260646000fd';
/** Returns NUMBER. */
const NUMBER_CODE = '0x4360005260206000f3';
const overrides = { [STORE]: { code: STORE_CODE }, [REVERTER]: { code: REVERT_CODE }, [NUMBER]: { code: NUMBER_CODE } };
const wallet = HDNodeWallet.fromPhrase(DEV_MNEMONIC, undefined, "m/44'/60'/0'/0/8");
const transfer = (nonce: number) =>
  wallet.signTransaction({
    type: 0,
    chainId: 1337,
    nonce,
    gasLimit: 21_000,
    gasPrice: 2_000_000_000,
    to: SINK,
    value: 1n,
  });

let node: NodeProcess;
let anvil: AnvilNode;

async function rpc(url: string, method: string, params: unknown[]): Promise<{ result?: any; error?: any }> {
  return (await post(url, request(method, params))).body;
}

beforeAll(async () => {
  [node, anvil] = await Promise.all([
    startNode(),
    startAnvil({ hardfork: 'shanghai', args: ['--gas-limit', '30000000'] }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([node?.stop(), anvil?.stop()]);
});

describe('eth_sendRawTransactionSync against Anvil', () => {
  it('answers the receipt of the mined transaction, the same on both', async () => {
    const raw = await transfer(0);
    const [ours, theirs] = await Promise.all([
      rpc(node.url, 'eth_sendRawTransactionSync', [raw]),
      rpc(anvil.url, 'eth_sendRawTransactionSync', [raw]),
    ]);
    expect(ours.error).toBeUndefined();
    const fields = [
      'transactionHash',
      'transactionIndex',
      'blockNumber',
      'from',
      'to',
      'status',
      'gasUsed',
      'cumulativeGasUsed',
      'logs',
      'type',
      'contractAddress',
    ];
    const pick = (r: any) => Object.fromEntries(fields.map((f) => [f, r[f]]));
    expect(pick(ours.result)).toEqual(pick(theirs.result));
    // The receipt is the stored one: eth_getTransactionReceipt gives it too.
    const stored = await rpc(node.url, 'eth_getTransactionReceipt', [ours.result.transactionHash]);
    expect(stored.result).toEqual(ours.result);
  });

  it('with mining off: a block mined while the request waits answers it, on both', async () => {
    for (const url of [node.url, anvil.url]) expect((await rpc(url, 'evm_setAutomine', [false])).error).toBeUndefined();
    const raw = await transfer(1);
    // Anvil 1.7.1 takes no timeout parameter (its wait is 30 s); the block comes well before.
    const waiting = Promise.all([
      rpc(node.url, 'eth_sendRawTransactionSync', [raw]),
      rpc(anvil.url, 'eth_sendRawTransactionSync', [raw]),
    ]);
    const hash = keccak256(raw);
    for (const url of [node.url, anvil.url]) {
      for (let i = 0; i < 400 && !(await rpc(url, 'eth_getTransactionByHash', [hash])).result; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect((await rpc(url, 'evm_mine', [])).error).toBeUndefined();
    }
    const [ours, theirs] = await waiting;
    expect(ours.error).toBeUndefined();
    expect(ours.result.status).toBe('0x1');
    expect(ours.result.transactionHash).toBe(theirs.result.transactionHash);
    expect(ours.result.blockNumber).toBe(theirs.result.blockNumber);
  });

  it("past its wait: error 4 with the transaction hash, as Anvil's source answers (1.7.1 has no timeout)", async () => {
    const raw = await transfer(2);
    const { error } = await rpc(node.url, 'eth_sendRawTransactionSync', [raw, 300]);
    expect(error.code).toBe(4);
    expect(error.data).toBe(keccak256(raw));
    expect(error.message).toMatch(/^Transaction confirmation timeout/);
    // Still pooled: the next block carries it.
    expect((await rpc(node.url, 'eth_getTransactionByHash', [error.data])).result.blockNumber).toBeNull();
    expect((await rpc(node.url, 'evm_setAutomine', [true])).error).toBeUndefined();
  });
});

describe('eth_callMany', () => {
  const bundles = [
    {
      transactions: [{ to: STORE, data: slot(77) }, { to: STORE }, { to: REVERTER }, { to: NUMBER }],
      blockOverride: { number: '0x100' },
    },
    { transactions: [{ to: STORE, data: slot(78) }, { to: STORE }, { to: NUMBER }] },
  ];

  it('runs bundles in order on one state; number steps by 1 per bundle; a revert gives its reason', async () => {
    const { result, error } = await rpc(node.url, 'eth_callMany', [bundles, { blockNumber: 'latest' }, overrides]);
    expect(error).toBeUndefined();
    expect(result).toEqual([
      [{ value: '0x' }, { value: slot(77) }, { error: 'execution reverted: no' }, { value: slot(0x100) }],
      [{ value: '0x' }, { value: slot(78) }, { value: slot(0x101) }],
    ]);
    // Nothing stored.
    expect((await rpc(node.url, 'eth_getCode', [STORE, 'latest'])).result).toBe('0x');
  });

  it("gives the outputs Anvil's eth_simulateV1 gives for the same calls (Anvil 1.7.1 has no eth_callMany)", async () => {
    expect((await rpc(anvil.url, 'eth_callMany', [bundles, { blockNumber: 'latest' }, overrides])).error.code).toBe(
      -32601,
    );
    const head = BigInt((await rpc(anvil.url, 'eth_blockNumber', [])).result);
    const blockStateCalls = bundles.map((b, i) => ({
      ...(i === 0 ? { stateOverrides: overrides } : {}),
      blockOverrides: { number: `0x${(0x100 + i).toString(16)}` },
      calls: b.transactions,
    }));
    expect(head).toBeLessThan(0x100n);
    const theirs = (await rpc(anvil.url, 'eth_simulateV1', [{ blockStateCalls }, 'latest'])).result;
    const ours = (await rpc(node.url, 'eth_callMany', [bundles, { blockNumber: 'latest' }, overrides])).result;
    const outputs = theirs.map((b: any) => b.calls.map((c: any) => c.returnData));
    const ourOutputs = ours.map((b: any[]) => b.map((c) => c.value ?? `0x${'08c379a0'}`));
    expect(ourOutputs.map((b: string[]) => b.map((v) => v.slice(0, 10)))).toEqual(
      outputs.map((b: string[]) => b.map((v) => v.slice(0, 10))),
    );
    expect(ourOutputs).toEqual(
      outputs.map((b: string[]) => b.map((v) => (v.startsWith('0x08c379a0') ? '0x08c379a0' : v))),
    );
  });

  it('with transactionIndex n, runs after the block’s first n transactions', async () => {
    // Block 1 holds the first test's transfer of 1 wei to SINK; the probe returns SINK's balance.
    const probe = '0x00000000000000000000000000000000000000c7';
    const balanceAt = (index: number) =>
      rpc(node.url, 'eth_callMany', [
        [{ transactions: [{ to: probe }] }],
        { blockNumber: '0x1', transactionIndex: index },
        { [probe]: { code: `0x73${SINK.slice(2)}3160005260206000f3` } },
      ]);
    expect((await balanceAt(0)).result).toEqual([[{ value: slot(0) }]]);
    expect((await balanceAt(1)).result).toEqual([[{ value: slot(1) }]]);
    expect((await balanceAt(-1)).result).toEqual([[{ value: slot(1) }]]);
    expect((await balanceAt(2)).error.code).toBe(-32602);
  });
});

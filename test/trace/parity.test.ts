/**
 * trace_* on a dev chain, checked field by field against what the contracts did: a parent contract that calls a
 * child (which writes a slot and returns 42, or reverts when asked), creates a contract and calls it, and that
 * contract self-destructs to the parent. Blocks carry no uncles, so each has one reward trace. Then a trace_filter
 * over as many empty blocks as its caps allow (lowered to 1,000 from 10,000, so the walk costs a tenth) bounded by
 * `count`, the caps, and a stateDiff compared with balances, nonces and storage read before and after the transaction.
 */
import { getCreateAddress } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { post, request } from '../helpers/rpc.js';
import { receiptOf } from '../helpers/receipt-of.js';

const sender = DEV_ACCOUNTS[3].address.toLowerCase();
/** Writes 1 to slot 1 and returns 42; reverts when the first calldata byte is 0xff. */
const CHILD = '60003560f81c60ff14601b576001600155602a60005260206000f35b60006000fd';
/** Init code of a contract whose code is CALLER SELFDESTRUCT. */
const BOMB_INIT = '6002600c60003960026000f333ff';
/** Forwards its calldata to the child, then creates a bomb and calls it. */
const parentCode = (child: string) =>
  `36600060003760206000366000600073${child.slice(2)}5af150` +
  `6d${BOMB_INIT}600052600e60126000f060006000600060006000855af1505000`;
const deployOf = (runtime: string) => {
  const len = (runtime.length / 2).toString(16).padStart(2, '0');
  return `0x60${len}80600b6000396000f3${runtime}`;
};

let node: NodeProcess;
let child: string;
let parent: string;
let bomb: string;
let callTx: string;
let revertTx: string;
let callBlock: number;

async function rpc(method: string, params: unknown[]): Promise<any> {
  const res = await post(node.url, request(method, params));
  if (res.body.error) throw Object.assign(new Error(res.body.error.message), res.body.error);
  return res.body.result;
}

async function rpcError(method: string, params: unknown[]): Promise<{ code: number; message: string }> {
  const res = await post(node.url, request(method, params));
  expect(res.body.error).toBeDefined();
  return res.body.error;
}

async function send(tx: Record<string, string>): Promise<any> {
  return receiptOf(rpc, await rpc('eth_sendTransaction', [{ from: sender, gas: '0x100000', ...tx }]));
}

/** trace_filter's caps (network.rpc.trace.filter-max-blocks and filter-max-count), set for this node. */
const CAP = 1_000;

beforeAll(async () => {
  node = await startNode({
    env: {
      SVC_NODE_NETWORK_RPC_TRACE_FILTER_MAX_BLOCKS: String(CAP),
      SVC_NODE_NETWORK_RPC_TRACE_FILTER_MAX_COUNT: String(CAP),
    },
  });
  child = (await send({ data: deployOf(CHILD) })).contractAddress;
  const parentRuntime = parentCode(child);
  parent = (await send({ data: deployOf(parentRuntime) })).contractAddress;
  bomb = getCreateAddress({ from: parent, nonce: 1 }).toLowerCase();
  const called = await send({ to: parent, data: '0x00' });
  callTx = called.transactionHash;
  callBlock = Number(called.blockNumber);
  revertTx = (await send({ to: child, data: '0xff' })).transactionHash;
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

describe('trace_transaction / trace_block / trace_get', () => {
  it('lists the nested call, the creation, the call to the created contract and its self-destruct', async () => {
    const traces = await rpc('trace_transaction', [callTx]);
    expect(traces.map((t: any) => [t.type, t.traceAddress, t.subtraces])).toEqual([
      ['call', [], 3],
      ['call', [0], 0],
      ['create', [1], 0],
      ['call', [2], 1],
      ['suicide', [2, 0], 0],
    ]);
    const [top, toChild, create, toBomb, suicide] = traces;
    expect(top.action).toMatchObject({ callType: 'call', from: sender, to: parent, input: '0x00', value: '0x0' });
    expect(top.result.output).toBe('0x');
    expect(toChild.action).toMatchObject({ callType: 'call', from: parent, to: child, input: '0x00', value: '0x0' });
    expect(toChild.result.output).toBe(`0x${'2a'.padStart(64, '0')}`);
    expect(BigInt(toChild.result.gasUsed)).toBeGreaterThan(20_000n); // a fresh slot written
    expect(create.action).toMatchObject({ from: parent, init: `0x${BOMB_INIT}`, value: '0x0' });
    expect(create.result).toMatchObject({ address: bomb, code: '0x33ff' });
    expect(toBomb.action).toMatchObject({ callType: 'call', from: parent, to: bomb, input: '0x' });
    expect(suicide.action).toEqual({ address: bomb, balance: '0x0', refundAddress: parent });
    expect(suicide.result).toBeUndefined();
    for (const t of traces) {
      expect(t).toMatchObject({ transactionHash: callTx, transactionPosition: 0, blockNumber: callBlock });
    }
  });

  it('words a reverted transaction "Reverted", with no result', async () => {
    const [top] = await rpc('trace_transaction', [revertTx]);
    expect(top).toMatchObject({ type: 'call', error: 'Reverted', action: { to: child, input: '0xff' } });
    expect(top.result).toBeUndefined();
    // The top trace's gas is what the code started with: the limit less the intrinsic gas (21,000 + 16 for the 0xff byte).
    expect(BigInt(top.action.gas)).toBe(0x100000n - 21_016n);
  });

  it("trace_block ends with the miner's reward (5 ETC in era 0, no uncles)", async () => {
    const block = await rpc('eth_getBlockByNumber', [`0x${callBlock.toString(16)}`, false]);
    const traces = await rpc('trace_block', [`0x${callBlock.toString(16)}`]);
    expect(traces).toHaveLength(6);
    expect(traces.slice(0, 5)).toEqual(await rpc('trace_transaction', [callTx]));
    expect(traces[5]).toEqual({
      action: { author: block.miner, rewardType: 'block', value: '0x4563918244f40000' },
      blockHash: block.hash,
      blockNumber: callBlock,
      result: null,
      subtraces: 0,
      traceAddress: [],
      transactionHash: null,
      transactionPosition: null,
      type: 'reward',
    });
    expect(await rpc('trace_block', ['0xffffff'])).toBeNull();
  });

  it('trace_get picks a trace by its address', async () => {
    const traces = await rpc('trace_transaction', [callTx]);
    expect(await rpc('trace_get', [callTx, ['0x2', '0x0']])).toEqual(traces[4]);
    expect(await rpc('trace_get', [callTx, []])).toEqual(traces[0]);
    expect(await rpc('trace_get', [callTx, ['0x7']])).toBeNull();
  });
});

describe('trace_filter', () => {
  it('matches senders and receivers, rewards included', async () => {
    const range = { fromBlock: `0x${callBlock.toString(16)}`, toBlock: `0x${callBlock.toString(16)}` };
    const fromParent = await rpc('trace_filter', [{ ...range, fromAddress: [parent] }]);
    expect(fromParent.map((t: any) => t.traceAddress)).toEqual([[0], [1], [2]]);
    const toParent = await rpc('trace_filter', [{ ...range, toAddress: [parent] }]);
    expect(toParent.map((t: any) => t.type)).toEqual(['call', 'suicide']);
    const all = await rpc('trace_filter', [range]);
    expect(all.at(-1).type).toBe('reward');
  });

  it('walks all the empty blocks the cap allows, stops at count; caps answer -32602 naming their setting', async () => {
    const start = Number(await rpc('eth_blockNumber', [])) + 1;
    const end = start + CAP - 1;
    await rpc('qa_mineBlocks', [CAP, false]);
    for (let i = 0; i < 600 && Number(await rpc('eth_blockNumber', [])) < end; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const range = { fromBlock: `0x${start.toString(16)}`, toBlock: `0x${end.toString(16)}` };
    const page = await rpc('trace_filter', [{ ...range, after: 3, count: 5 }]);
    expect(page.map((t: any) => [t.type, t.blockNumber])).toEqual([3, 4, 5, 6, 7].map((i) => ['reward', start + i]));
    const last = await rpc('trace_filter', [{ ...range, after: CAP - 1, count: 5 }]);
    expect(last.map((t: any) => t.blockNumber)).toEqual([end]);
    const wide = await rpcError('trace_filter', [{ fromBlock: '0x0', toBlock: `0x${end.toString(16)}` }]);
    expect(wide.code).toBe(-32602);
    expect(wide.message).toContain('network.rpc.trace.filter-max-blocks');
    const many = await rpcError('trace_filter', [{ ...range, count: CAP + 1 }]);
    expect(many.code).toBe(-32602);
    expect(many.message).toContain('network.rpc.trace.filter-max-count');
  }, 120_000);
});

describe('trace_replayTransaction / trace_replayBlockTransactions', () => {
  it('stateDiff equals the balances, nonces and storage read before and after the transaction', async () => {
    const before = `0x${(callBlock - 1).toString(16)}`;
    const after = `0x${callBlock.toString(16)}`;
    const { stateDiff, trace, output, vmTrace } = await rpc('trace_replayTransaction', [callTx, ['stateDiff']]);
    expect({ trace, output, vmTrace }).toEqual({ trace: [], output: '0x', vmTrace: null });
    expect(stateDiff[sender].balance).toEqual({
      '*': { from: await rpc('eth_getBalance', [sender, before]), to: await rpc('eth_getBalance', [sender, after]) },
    });
    expect(stateDiff[sender].nonce).toEqual({
      '*': {
        from: await rpc('eth_getTransactionCount', [sender, before]),
        to: await rpc('eth_getTransactionCount', [sender, after]),
      },
    });
    const slot1 = `0x${'1'.padStart(64, '0')}`;
    expect(await rpc('eth_getStorageAt', [child, '0x1', before])).toBe(`0x${'0'.repeat(64)}`);
    expect(stateDiff[child].storage).toEqual({
      [slot1]: { '*': { from: `0x${'0'.repeat(64)}`, to: await rpc('eth_getStorageAt', [child, '0x1', after]) } },
    });
    expect(stateDiff[child]).toMatchObject({ balance: '=', code: '=', nonce: '=' });
    // The parent's nonce went up with its creation; the bomb was born and died in the transaction: no entry.
    expect(stateDiff[parent].nonce).toEqual({ '*': { from: '0x1', to: '0x2' } });
    expect(stateDiff[bomb]).toBeUndefined();
  });

  it('replays a block: one result per transaction with its hash and traces', async () => {
    const [result] = await rpc('trace_replayBlockTransactions', [`0x${callBlock.toString(16)}`, ['trace']]);
    expect(result.transactionHash).toBe(callTx);
    expect(result.stateDiff).toBeNull();
    expect(result.trace).toHaveLength(5);
    expect(result.trace[4]).toMatchObject({ type: 'suicide', traceAddress: [2, 0] });
    expect(result.trace[0].transactionHash).toBeUndefined();
  });

  it('vmTrace is refused with -32602 saying it is not offered', async () => {
    const error = await rpcError('trace_replayTransaction', [callTx, ['vmTrace']]);
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining('vmTrace is not offered') });
  });
});

describe('trace_call / trace_callMany / trace_rawTransaction', () => {
  it('traces a call without storing anything', async () => {
    const result = await rpc('trace_call', [{ from: sender, to: child, data: '0xff' }, ['trace'], 'latest']);
    expect(result.trace).toHaveLength(1);
    expect(result.trace[0]).toMatchObject({ error: 'Reverted', action: { to: child } });
  });

  it('runs calls in sequence: the second sees the value the first sent', async () => {
    const fresh = '0x00000000000000000000000000000000000f7e5a';
    const onward = '0x00000000000000000000000000000000000f7e5b';
    const [first, second] = await rpc('trace_callMany', [
      [
        [{ from: sender, to: fresh, value: '0x100' }, ['stateDiff']],
        [{ from: fresh, to: onward, value: '0x40' }, ['stateDiff', 'trace']],
      ],
      'latest',
    ]);
    expect(first.stateDiff[fresh].balance).toEqual({ '+': '0x100' });
    expect(second.stateDiff[fresh].balance).toEqual({ '*': { from: '0x100', to: '0xc0' } });
    expect(second.stateDiff[onward].balance).toEqual({ '+': '0x40' });
    expect(await rpc('eth_getBalance', [fresh, 'latest'])).toBe('0x0');
  });
});

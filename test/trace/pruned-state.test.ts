/**
 * What a `--gcmode full` node answers for states it does not keep, by the retention policy (no pruner needed): a dev
 * node keeping its last 16 states and 2 sparse ones at multiples of 16, re-executing at most 8 blocks for a trace.
 * Blocks 17–21 carry a contract, a call writing its slot and transfers (10 and 27 a transfer each); the traces of those blocks taken while their
 * states were kept are the reference for the re-executed ones after the head moved to 60 (kept: 45–60, 32, 16).
 */
import { JsonRpcProvider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { post, request } from '../helpers/rpc.js';
import { receiptOf } from '../helpers/receipt-of.js';

const sender = DEV_ACCOUNTS[3].address.toLowerCase();
const receiver = DEV_ACCOUNTS[4].address.toLowerCase();
/** Writes 1 to slot 1 and returns 42. */
const CHILD = '600160015560' + '2a60005260206000f3';
const deployOf = (runtime: string) => {
  const len = (runtime.length / 2).toString(16).padStart(2, '0');
  return `0x60${len}80600b6000396000f3${runtime}`;
};
const hex = (n: number) => `0x${n.toString(16)}`;
const notKept = (n: number) =>
  `state of block ${n} is not kept (this node keeps the last 16 states; start with --gcmode archive for older ones)`;

let node: NodeProcess;
let child: string;
const before = new Map<string, unknown>();

async function rpc(method: string, params: unknown[]): Promise<any> {
  const res = await post(node.url, request(method, params));
  if (res.body.error) throw Object.assign(new Error(res.body.error.message), res.body.error);
  return res.body.result;
}

async function rpcError(method: string, params: unknown[]): Promise<{ code: number; message: string; data?: any }> {
  const res = await post(node.url, request(method, params));
  expect(res.body.error, `${method} answered ${JSON.stringify(res.body.result)?.slice(0, 200)}`).toBeDefined();
  return res.body.error;
}

async function send(tx: Record<string, string>): Promise<any> {
  return receiptOf(rpc, await rpc('eth_sendTransaction', [{ from: sender, gas: '0x100000', ...tx }]));
}

/** The traces compared before and after the window moved. */
const traces = (n: number): Array<[string, unknown[]]> => [
  ['debug_traceCall', [{ from: sender, to: child, data: '0x' }, hex(n), { tracer: 'prestateTracer' }]],
  ['trace_block', [hex(n)]],
  ['debug_traceBlockByNumber', [hex(n), { tracer: 'callTracer' }]],
  ['debug_traceBlockByNumber', [hex(n), { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]],
];

beforeAll(async () => {
  node = await startNode({
    args: ['--gcmode', 'full', '--state.keep', '16'],
    env: {
      SVC_NODE_STATE_CHECKPOINT_INTERVAL: '16',
      SVC_NODE_STATE_CHECKPOINTS: '2',
      SVC_NODE_NETWORK_RPC_DEBUG_REEXEC: '8',
    },
  });
  await rpc('anvil_mine', [hex(9)]);
  await send({ to: receiver, value: hex(7) }); // 10
  await rpc('anvil_mine', [hex(6)]);
  child = (await send({ data: deployOf(CHILD) })).contractAddress; // 17
  expect(Number((await send({ to: child, data: '0x' })).blockNumber)).toBe(18);
  for (let i = 0; i < 3; i++) await send({ to: receiver, value: hex(1000 + i) }); // 19, 20, 21
  for (const n of [18, 19, 21])
    for (const [m, p] of traces(n)) before.set(`${m} ${JSON.stringify(p)}`, await rpc(m, p));
  await rpc('anvil_mine', [hex(5)]);
  await send({ to: receiver, value: hex(9) }); // 27
  before.set('balance', BigInt(await rpc('eth_getBalance', [receiver, 'latest'])));
  await rpc('anvil_mine', [hex(33)]);
  expect(await rpc('eth_blockNumber', [])).toBe(hex(60));
}, 90_000);

afterAll(async () => {
  await node?.stop();
});

describe('state reads at a block whose state is not kept', () => {
  it('answers -32000 with the block and the way out, through ethers', async () => {
    const provider = new JsonRpcProvider(node.url, undefined, { staticNetwork: true });
    try {
      const err: any = await provider.getBalance(receiver, 20).then(
        () => undefined,
        (e) => e,
      );
      expect(err?.error?.code).toBe(-32000);
      expect(err?.error?.message).toBe(notKept(20));
      // In the window, and at a sparse checkpoint, the same read answers.
      expect(await provider.getBalance(receiver, 50)).toBe(before.get('balance'));
      expect(await provider.getBalance(receiver, 32)).toBe(before.get('balance'));
    } finally {
      provider.destroy();
    }
  });

  it('refuses every state read the same way, genesis included, naming the oldest kept state', async () => {
    const call = { from: sender, to: child, data: '0x' };
    const reads: Array<[string, unknown[], number]> = [
      ['eth_getBalance', [receiver, hex(20)], 20],
      ['eth_getBalance', [receiver, 'earliest'], 0],
      ['eth_getCode', [child, hex(40)], 40],
      ['eth_getStorageAt', [child, '0x1', hex(44)], 44],
      ['eth_getTransactionCount', [sender, hex(31)], 31],
      ['eth_getProof', [child, ['0x1'], hex(30)], 30],
      ['eth_call', [call, hex(20)], 20],
      ['eth_estimateGas', [call, hex(20)], 20],
      ['eth_createAccessList', [call, hex(20)], 20],
      ['debug_accountRange', [hex(20), 0, '0x00', 10], 20],
      ['ots_hasCode', [child, 20], 20],
    ];
    for (const [method, params, n] of reads) {
      const err = await rpcError(method, params);
      expect([method, err.code, err.message]).toEqual([method, -32000, notKept(n)]);
      expect(err.data).toEqual({ block: hex(n), oldestKept: hex(16) });
    }
    expect(await rpc('eth_getStorageAt', [child, '0x1', hex(45)])).toBe(`0x${'0'.repeat(63)}1`);
    expect(await rpc('eth_call', [call, hex(16)])).toBe('0x'); // the checkpoint state before the contract
  });
});

describe('traces of a block whose parent state is not kept', () => {
  it('re-execute from the nearest kept state within reexec, answering as when the state was kept', async () => {
    // 18 and 19 replay on 17 and 18: one and two blocks above the checkpoint at 16; 21 on 20, four above it.
    for (const n of [18, 19, 21])
      for (const [m, p] of traces(n))
        expect(await rpc(m, p), `${m} ${n}`).toEqual(before.get(`${m} ${JSON.stringify(p)}`));
    const tx = before.get(`trace_block ${JSON.stringify([hex(21)])}`) as Array<{ transactionHash?: string }>;
    const hash = tx.find((t) => t.transactionHash !== undefined)!.transactionHash!;
    expect((await rpc('debug_traceTransaction', [hash, { tracer: 'callTracer' }])).value).toBe(hex(1002));
  });

  it('answer -32000 beyond reexec and below every kept state', async () => {
    // Block 27 replays on 26, ten above the checkpoint at 16 (reexec 8); block 10 has no kept state below it.
    for (const [n, parent] of [
      [27, 26],
      [10, 9],
    ]) {
      const err = await rpcError('trace_block', [hex(n)]);
      expect([err.code, err.message]).toEqual([-32000, notKept(parent)]);
      const geth = await rpcError('debug_traceBlockByNumber', [hex(n), { tracer: 'callTracer' }]);
      expect([geth.code, geth.message]).toEqual([-32000, notKept(parent)]);
    }
    // At the bound: 24 replays on 23, seven above 16.
    expect(Array.isArray(await rpc('trace_block', [hex(24)]))).toBe(true);
  });
});

/**
 * eth_simulateV1 on svc-node (dev) and on Anvil 1.7.1, the same simulations on both, compared field by field: state
 * and block overrides, a revert with its data, traceTransfers' Transfer logs among a contract's own, two blocks
 * where the second sees the first's state, and viem's simulateBlocks reading both answers.
 *
 * Anvil runs Shanghai, the Ethereum fork whose EVM is closest to the dev chain's (Spiral: PUSH0, warm coinbase,
 * the init code limit), so gas matches. Fields that must differ, and why (`DIFFERENT`):
 * - hash, parentHash, transactions (hashes), transactionHash/blockHash in logs: different chains (chain id 1337 vs
 *   the dev genesis), and Anvil hashes each call as a type-2 transaction with chain id 1 where Ethereum Classic has
 *   only legacy transactions; Anvil also leaves parentHash zero.
 * - stateRoot, transactionsRoot, receiptsRoot, logsBloom: svc-node computes them (execution-apis: "calculated
 *   normally", transfer logs left out of the bloom); Anvil answers a zero stateRoot, its transactionsRoot as
 *   receiptsRoot, and a bloom that holds the transfer logs.
 * - baseFeePerGas (Anvil only: Ethereum Classic has no EIP-1559), difficulty (svc-node: the base block's, as the
 *   spec says; Anvil: 0), totalDifficulty, checkpoint and size (svc-node's Block fields).
 * - error of a failed call: the spec's {code: 3, "execution reverted", data} on svc-node, Anvil's {-3200,
 *   "execution failed"}.
 * - a value transfer inside a frame that reverts: no Transfer log on svc-node (as geth drops a reverted frame's
 *   logs, transfers included); Anvil 1.7.1 keeps it.
 * - number when the request sets none: head + 1 on svc-node (the spec, geth), the head's own number on Anvil; so
 *   the compared simulations set number and time.
 */
import { HDNodeWallet } from 'ethers';
import { createPublicClient, http, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_MNEMONIC } from '../../src/chain/networks/devAccounts.js';
import { startAnvil, type AnvilNode } from '../helpers/anvil-node.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { post, request } from '../helpers/rpc.js';

const word = (n: bigint | number) => BigInt(n).toString(16).padStart(64, '0');
const slot = (n: number) => `0x${word(n)}`;
const addr = (n: number): Hex => `0x${n.toString(16).padStart(40, '0')}`;
const SENDER: Hex = '0xc000000000000000000000000000000000000000';
const PROBE = addr(0xc1);
const FORWARDER = addr(0xc2);
const SINK = addr(0xc3);
const STORE = addr(0xc4);
const REVERTER = addr(0xc5);
/** Returns slot 0, BALANCE(this), NUMBER, TIMESTAMP, GASLIMIT, COINBASE: 6 words. */
const PROBE_CODE = '0x600054600052303160205243604052426060524560805241' + '60a05260c06000f3';
/** LOG0; CALL(SINK) with CALLVALUE; LOG0; STOP. */
const FORWARDER_CODE = `0x60006000a0600060006000600034${'73'}${SINK.slice(2)}5af15060006000a000`;
/** With calldata: SSTORE(0, word); without: return SLOAD(0). */
const STORE_CODE = '0x3615600c57600035600055005b60005460005260206000f3';
/** REVERT with the 4 bytes 0xdeadbeef. */
const REVERT_CODE = '0x63deadbeef60e01b60005260046000fd';
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const topicOf = (address: string) => `0x${address.slice(2).padStart(64, '0')}`;

let node: NodeProcess;
let anvil: AnvilNode;

async function rpc(url: string, method: string, params: unknown[]): Promise<{ result?: any; error?: any }> {
  return (await post(url, request(method, params))).body;
}

async function both(params: unknown[]) {
  const [ours, theirs] = await Promise.all([
    rpc(node.url, 'eth_simulateV1', params),
    rpc(anvil.url, 'eth_simulateV1', params),
  ]);
  expect(ours.error).toBeUndefined();
  expect(theirs.error).toBeUndefined();
  return { ours: ours.result as any[], theirs: theirs.result as any[] };
}

/** A log without the fields that name a chain's hashes (blockHash, transactionHash). */
const logShape = ({ blockHash: _b, transactionHash: _t, ...rest }: any) => rest;
/** A call's fields both nodes must agree on: all but error (see DIFFERENT), with logs as `logShape`. */
const callShape = ({ error: _e, maxUsedGas: _m, logs, ...rest }: any) => ({ ...rest, logs: logs.map(logShape) });
/** A block's fields both nodes must agree on. */
const blockShape = (b: any) => ({
  number: b.number,
  timestamp: b.timestamp,
  gasLimit: b.gasLimit,
  gasUsed: b.gasUsed,
  miner: b.miner,
  transactionCount: b.transactions.length,
  calls: b.calls.map(callShape),
});

beforeAll(async () => {
  [node, anvil] = await Promise.all([
    startNode(),
    startAnvil({ hardfork: 'shanghai', args: ['--gas-limit', '30000000'] }),
  ]);
  // One mined block on each, so the simulations build on a block with a parent.
  const wallet = HDNodeWallet.fromPhrase(DEV_MNEMONIC, undefined, "m/44'/60'/0'/0/7");
  const raw = await wallet.signTransaction({
    type: 0,
    chainId: 1337,
    nonce: 0,
    gasLimit: 21_000,
    gasPrice: 2_000_000_000,
    to: SINK,
    value: 1n,
  });
  for (const url of [node.url, anvil.url]) {
    const sent = await rpc(url, 'eth_sendRawTransaction', [raw]);
    expect(sent.error).toBeUndefined();
    for (let i = 0; i < 100 && !(await rpc(url, 'eth_getTransactionReceipt', [sent.result])).result; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Both heads at 1: the simulated numbers below (2, 3) follow the head on both.
    expect((await rpc(url, 'eth_blockNumber', [])).result).toBe('0x1');
  }
}, 60_000);

afterAll(async () => {
  await Promise.all([node?.stop(), anvil?.stop()]);
});

const env = (n: number) => ({
  number: `0x${(1 + n).toString(16)}`,
  time: `0x${(0x70000000 + 12 * n).toString(16)}`,
  gasLimit: '0x1c9c380',
  feeRecipient: addr(0xfee),
});

describe('eth_simulateV1 against Anvil', () => {
  it('state and block overrides show in what the call reads', async () => {
    const { ours, theirs } = await both([
      {
        blockStateCalls: [
          {
            blockOverrides: env(1),
            stateOverrides: { [PROBE]: { code: PROBE_CODE, balance: '0x1234', stateDiff: { [slot(0)]: slot(42) } } },
            calls: [{ from: SENDER, to: PROBE }],
          },
        ],
      },
      'latest',
    ]);
    const expected = `0x${word(42)}${word(0x1234)}${word(2)}${word(0x70000000 + 12)}${word(0x1c9c380)}${word(0xfee)}`;
    expect(ours[0].calls[0].returnData).toBe(expected);
    expect(ours.map(blockShape)).toEqual(theirs.map(blockShape));
  });

  it('a revert gives status 0x0 with the revert bytes; error is the spec code 3 here', async () => {
    const { ours, theirs } = await both([
      {
        blockStateCalls: [
          {
            blockOverrides: env(1),
            stateOverrides: { [REVERTER]: { code: REVERT_CODE } },
            calls: [{ from: SENDER, to: REVERTER }],
          },
        ],
      },
      'latest',
    ]);
    const call = ours[0].calls[0];
    expect(call).toMatchObject({ status: '0x0', returnData: '0xdeadbeef' });
    expect(call.error).toEqual({ code: 3, message: 'execution reverted', data: '0xdeadbeef' });
    expect(theirs[0].calls[0].error.code).not.toBe(3); // DIFFERENT: Anvil answers -3200 "execution failed"
    expect(ours.map(blockShape)).toEqual(theirs.map(blockShape));
  });

  it('traceTransfers puts Transfer logs from 0xeeee…eeee among the contract logs, in order', async () => {
    const { ours, theirs } = await both([
      {
        blockStateCalls: [
          {
            blockOverrides: env(1),
            stateOverrides: { [SENDER]: { balance: '0x10000' }, [FORWARDER]: { code: FORWARDER_CODE } },
            calls: [{ from: SENDER, to: FORWARDER, value: '0x3e8' }],
          },
        ],
        traceTransfers: true,
      },
      'latest',
    ]);
    const logs = ours[0].calls[0].logs;
    expect(logs.map((l: any) => [l.address, l.topics])).toEqual([
      ['0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', [TRANSFER_TOPIC, topicOf(SENDER), topicOf(FORWARDER)]],
      [FORWARDER, []],
      ['0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', [TRANSFER_TOPIC, topicOf(FORWARDER), topicOf(SINK)]],
      [FORWARDER, []],
    ]);
    expect(logs[0].data).toBe(slot(1000));
    for (const log of logs) expect(log.blockHash).toBe(ours[0].hash);
    expect(ours.map(blockShape)).toEqual(theirs.map(blockShape));
  });

  it('a transfer inside a reverted frame leaves no log (the spec and geth; Anvil 1.7.1 keeps it)', async () => {
    const { ours, theirs } = await both([
      {
        blockStateCalls: [
          {
            blockOverrides: env(1),
            stateOverrides: {
              [SENDER]: { balance: '0x10000' },
              [FORWARDER]: { code: FORWARDER_CODE },
              [SINK]: { code: REVERT_CODE },
            },
            calls: [{ from: SENDER, to: FORWARDER, value: '0x3e8' }],
          },
        ],
        traceTransfers: true,
      },
      'latest',
    ]);
    const kinds = (logs: any[]) => logs.map((l) => (l.address === FORWARDER ? 'LOG0' : l.topics[2]));
    expect(kinds(ours[0].calls[0].logs)).toEqual([topicOf(FORWARDER), 'LOG0', 'LOG0']);
    // DIFFERENT: Anvil keeps the reverted CALL's transfer to SINK.
    expect(kinds(theirs[0].calls[0].logs)).toEqual([topicOf(FORWARDER), 'LOG0', topicOf(SINK), 'LOG0']);
    const { logs: _o, ...oursCall } = callShape(ours[0].calls[0]);
    const { logs: _t, ...theirCall } = callShape(theirs[0].calls[0]);
    expect(oursCall).toEqual(theirCall);
  });

  it('the second block sees the state the first left; nothing is stored', async () => {
    const headBefore = (await rpc(node.url, 'eth_blockNumber', [])).result;
    const { ours, theirs } = await both([
      {
        blockStateCalls: [
          {
            blockOverrides: env(1),
            stateOverrides: { [STORE]: { code: STORE_CODE }, [SENDER]: { balance: '0x10000' } },
            calls: [
              { from: SENDER, to: STORE, input: slot(77) },
              { from: SENDER, to: SINK, value: '0x100' },
            ],
          },
          { blockOverrides: env(2), calls: [{ from: SENDER, to: STORE }] },
        ],
      },
      'latest',
    ]);
    expect(ours[1].calls[0].returnData).toBe(slot(77));
    expect(ours[1].parentHash).toBe(ours[0].hash);
    expect(ours.map(blockShape)).toEqual(theirs.map(blockShape));
    expect((await rpc(node.url, 'eth_blockNumber', [])).result).toBe(headBefore);
    expect((await rpc(node.url, 'eth_getCode', [STORE, 'latest'])).result).toBe('0x');
  });

  it("viem's simulateBlocks reads both answers alike", async () => {
    const run = (url: string) =>
      createPublicClient({ transport: http(url) }).simulateBlocks({
        blocks: [
          {
            blockOverrides: { number: 2n, time: 0x7000000cn },
            stateOverrides: [{ address: STORE, code: STORE_CODE as Hex }],
            calls: [{ account: SENDER, to: STORE, data: slot(5) as Hex }],
          },
          { blockOverrides: { number: 3n, time: 0x70000018n }, calls: [{ account: SENDER, to: STORE }] },
        ],
      });
    const [ours, theirs] = await Promise.all([run(node.url), run(anvil.url)]);
    const shape = (blocks: typeof ours) =>
      blocks.map((b) => ({
        number: b.number,
        timestamp: b.timestamp,
        gasUsed: b.gasUsed,
        calls: b.calls.map((c) => ({ status: c.status, data: c.data, gasUsed: c.gasUsed })),
      }));
    expect(shape(ours)).toEqual(shape(theirs));
    expect(ours[1].calls[0].data).toBe(slot(5));
  });
});

describe('eth_simulateV1 on svc-node alone: the spec defaults and codes', () => {
  it('numbers the first block head + 1 and spaces times by 12 s; gaps are filled with empty blocks', async () => {
    const head = await rpc(node.url, 'eth_getBlockByNumber', ['latest', false]);
    const { result } = await rpc(node.url, 'eth_simulateV1', [
      { blockStateCalls: [{}, { blockOverrides: { number: `0x${(BigInt(head.result.number) + 4n).toString(16)}` } }] },
      'latest',
    ]);
    expect(result.map((b: any) => BigInt(b.number) - BigInt(head.result.number))).toEqual([1n, 2n, 3n, 4n]);
    expect(BigInt(result[0].timestamp) - BigInt(head.result.timestamp)).toBe(12n);
    expect(result[0].parentHash).toBe(head.result.hash);
    expect(result[0]).not.toHaveProperty('baseFeePerGas');
  });

  it('returnFullTransactions lists the calls as unsigned legacy transactions from their senders', async () => {
    const { result } = await rpc(node.url, 'eth_simulateV1', [
      {
        blockStateCalls: [
          {
            calls: [
              { from: SENDER, to: SINK },
              { from: SENDER, to: SINK },
            ],
          },
        ],
        returnFullTransactions: true,
      },
      'latest',
    ]);
    const txs = result[0].transactions;
    expect(txs.map((t: any) => [t.type, t.from, t.nonce, t.v, t.blockHash])).toEqual([
      ['0x0', SENDER, '0x0', '0x0', result[0].hash],
      ['0x0', SENDER, '0x1', '0x0', result[0].hash],
    ]);
  });

  it('answers each stop with its code', async () => {
    const code = async (payload: unknown) => (await rpc(node.url, 'eth_simulateV1', [payload, 'latest'])).error?.code;
    expect(await code({ blockStateCalls: Array.from({ length: 257 }, () => ({})) })).toBe(-38026);
    expect(await code({ blockStateCalls: [{ blockOverrides: { number: '0x1' } }] })).toBe(-38020);
    expect(await code({ blockStateCalls: [{}, { blockOverrides: { time: '0x1' } }] })).toBe(-38021);
    expect(
      await code({
        blockStateCalls: [{ stateOverrides: { [PROBE]: { code: PROBE_CODE } }, calls: [{ from: PROBE, to: SINK }] }],
        validation: true,
      }),
    ).toBe(-38024);
    expect(await code({ blockStateCalls: [{ calls: [{ from: SENDER, to: SINK, value: '0x1' }] }] })).toBe(-38014);
    expect(
      await code({ blockStateCalls: [{ calls: [{ from: SENDER, to: SINK, nonce: '0x5' }] }], validation: true }),
    ).toBe(-38011);
    expect(await code({ blockStateCalls: [{ calls: [{ from: SENDER, to: SINK, gas: '0x100' }] }] })).toBe(-38013);
    expect(await code({ blockStateCalls: [{ blockOverrides: { baseFeePerGas: '0x1' } }] })).toBe(-32602);
  });
});

describe('eth_simulateV1 limits from the settings table', () => {
  let limited: NodeProcess;
  beforeAll(async () => {
    limited = await startNode({
      env: {
        ...process.env,
        SVC_NODE_NETWORK_RPC_CALL_TIMEOUT: '50ms',
        SVC_NODE_NETWORK_RPC_CALL_SIMULATE_MAX_BLOCKS: '3',
      },
    });
  }, 60_000);
  afterAll(async () => {
    await limited?.stop();
  });

  it('more blocks than network.rpc.call.simulate-max-blocks: -38026; past network.rpc.call.timeout: -32016', async () => {
    const simulateOn = async (payload: unknown) =>
      (await rpc(limited.url, 'eth_simulateV1', [payload, 'latest'])).error;
    expect(await simulateOn({ blockStateCalls: [{}, {}, {}] })).toBeUndefined();
    const tooMany = await simulateOn({ blockStateCalls: [{}, {}, {}, {}] });
    expect(tooMany.code).toBe(-38026);
    expect(tooMany.message).toMatch(/network\.rpc\.call\.simulate-max-blocks/);
    // A loop with the whole block's gas runs far past 50 ms; the node stops it.
    const loop = { [PROBE]: { code: '0x5b600056' } };
    const slow = await simulateOn({
      blockStateCalls: [{ stateOverrides: loop, calls: [{ from: SENDER, to: PROBE }] }],
    });
    expect(slow.code).toBe(-32016);
    expect(slow.message).toMatch(/network\.rpc\.call\.timeout/);
  });
});

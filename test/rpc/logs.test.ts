/**
 * eth_getLogs and log filters over HTTP against the real engine: standard log fields (blockTimestamp too, also in
 * receipts, filters and subscriptions), address / topic criteria, EIP-234 blockHash, the range and result limits
 * (-32602 with the limit in the message), and a reorganisation (a heavier side chain imported through the engine)
 * reported as `removed: true` logs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addToPool,
  deployEmitter,
  hex,
  pingTx,
  PING_TOPIC,
  rpc,
  startInProcessNode,
  until,
  word,
  WsClient,
  type InProcessNode,
} from './logs-fixture.js';

let node: InProcessNode;
let emitter: Uint8Array;
let nonce = 1n;

beforeAll(async () => {
  node = await startInProcessNode({
    env: { SVC_NODE_NETWORK_RPC_LOGS_MAX_BLOCK_RANGE: '50', SVC_NODE_NETWORK_RPC_LOGS_MAX_RESULTS: '20' },
  });
  emitter = await deployEmitter(node.engine);
});

afterAll(async () => {
  await node?.stop();
});

const ping = (n: number) => pingTx(node.engine, emitter, nonce++, n);

describe('eth_getLogs', () => {
  it('returns the logs of a block with block-wide logIndex and every standard field', async () => {
    await addToPool(node.engine, [ping(1), ping(2), ping(3)]);
    const [mined] = await node.engine.miner.mineBlocks(1);
    const number = `0x${mined.block.header.number.toString(16)}`;
    const stamp = `0x${mined.block.header.timestamp.toString(16)}`;
    const { result } = await rpc(node.url, 'eth_getLogs', [
      { fromBlock: number, toBlock: number, address: hex(emitter) },
    ]);
    expect(result).toHaveLength(3);
    expect(result.map((l: any) => l.logIndex)).toEqual(['0x0', '0x1', '0x2']);
    expect(result.map((l: any) => l.transactionIndex)).toEqual(['0x0', '0x1', '0x2']);
    expect(result[1]).toEqual({
      removed: false,
      logIndex: '0x1',
      transactionIndex: '0x1',
      transactionHash: hex(mined.block.transactions[1].hash()),
      blockHash: hex(mined.block.hash()),
      blockNumber: number,
      blockTimestamp: stamp,
      address: hex(emitter),
      data: hex(word(2)),
      topics: [PING_TOPIC],
    });
    // Receipts carry the same logs, blockTimestamp included (execution-apis, geth 1.16, Anvil).
    const receipt = await rpc(node.url, 'eth_getTransactionReceipt', [hex(mined.block.transactions[1].hash())]);
    expect(receipt.result.logs).toEqual([result[1]]);
    const receipts = await rpc(node.url, 'eth_getBlockReceipts', [number]);
    expect(receipts.result.flatMap((r: any) => r.logs)).toEqual(result);
    // EIP-234: the same logs by block hash; topic OR-arrays and null wildcards; an address array.
    const byHash = await rpc(node.url, 'eth_getLogs', [
      { blockHash: hex(mined.block.hash()), topics: [[PING_TOPIC, hex(word(9))]] },
    ]);
    expect(byHash.result).toEqual(result);
    const other = await rpc(node.url, 'eth_getLogs', [
      { fromBlock: '0x0', address: [hex(new Uint8Array(20).fill(1))] },
    ]);
    expect(other.result).toEqual([]);
    const tooManyTopics = await rpc(node.url, 'eth_getLogs', [
      { blockHash: hex(mined.block.hash()), topics: [null, null] },
    ]);
    expect(tooManyTopics.result).toEqual([]);
  });

  it('answers an unknown blockHash with -32001 and blockHash plus a range with -32602', async () => {
    const unknown = `0x${'ab'.repeat(32)}`;
    expect((await rpc(node.url, 'eth_getLogs', [{ blockHash: unknown }])).error).toMatchObject({
      code: -32001,
      message: `Block ${unknown} not found`,
    });
    expect((await rpc(node.url, 'eth_getLogs', [{ blockHash: unknown, fromBlock: '0x0' }])).error?.code).toBe(-32602);
  });

  it('refuses an over-wide range with -32602 naming the limit and a range that fits', async () => {
    await node.engine.miner.mineBlocks(50, { withTransactions: false });
    const { error } = await rpc(node.url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]);
    expect(error?.code).toBe(-32602);
    expect(error?.message).toMatch(/more than the limit of 50; query at most 50 blocks at a time, e\.g\. 0x0\.\.0x31/);
  });

  it('refuses a result over the cap with -32602 naming the cap', async () => {
    const txs = Array.from({ length: 21 }, (_, i) => ping(100 + i));
    await addToPool(node.engine, txs);
    await node.engine.miner.mineBlocks(1);
    const { error } = await rpc(node.url, 'eth_getLogs', [{ fromBlock: 'latest', address: hex(emitter) }]);
    expect(error?.code).toBe(-32602);
    expect(error?.message).toMatch(/more than 20 results/);
  });
});

describe('log filters and subscriptions across a reorganisation', () => {
  it('report the logs of dropped blocks again with removed: true', async () => {
    const filter = (await rpc(node.url, 'eth_newFilter', [{ address: hex(emitter) }])).result as string;
    const ws = await WsClient.open(node.wsUrl);
    const sub = (await ws.call('eth_subscribe', ['logs', { address: hex(emitter), topics: [PING_TOPIC] }]))
      .result as string;
    const forkPoint = node.engine.chain.getHead();

    await addToPool(node.engine, [ping(501), ping(502)]);
    const [dropped] = await node.engine.miner.mineBlocks(1);
    const first = (await rpc(node.url, 'eth_getFilterChanges', [filter])).result;
    const stamp = `0x${dropped.block.header.timestamp.toString(16)}`;
    expect(first.map((l: any) => [l.data, l.removed, l.blockTimestamp])).toEqual([
      [hex(word(501)), false, stamp],
      [hex(word(502)), false, stamp],
    ]);

    // A heavier side chain from the fork point: two empty blocks outweigh the one with the logs.
    const side = await node.engine.miner.mineBlocks(2, { parentHash: forkPoint.hash(), withTransactions: false });
    expect(node.engine.chain.getHead().hash()).toEqual(side[1].block.hash());
    const second = (await rpc(node.url, 'eth_getFilterChanges', [filter])).result;
    expect(second).toHaveLength(2);
    expect(second.map((l: any) => [l.data, l.removed, l.blockHash])).toEqual([
      [hex(word(501)), true, hex(dropped.block.hash())],
      [hex(word(502)), true, hex(dropped.block.hash())],
    ]);

    await until(() => ws.of(sub).length >= 4, 'four log notifications');
    expect(ws.of(sub).map((l: any) => [l.data, l.removed, l.blockTimestamp])).toEqual([
      [hex(word(501)), false, stamp],
      [hex(word(502)), false, stamp],
      [hex(word(501)), true, stamp],
      [hex(word(502)), true, stamp],
    ]);
    // The canonical range no longer holds them; the dropped block is still readable by hash (EIP-234).
    const range = await rpc(node.url, 'eth_getLogs', [
      { fromBlock: `0x${dropped.block.header.number.toString(16)}`, address: hex(emitter) },
    ]);
    expect(range.result).toEqual([]);
    ws.close();
  });
});

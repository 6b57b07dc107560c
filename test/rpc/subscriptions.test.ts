/**
 * eth_subscribe / eth_unsubscribe over WebSocket: newHeads, logs, newPendingTransactions (hashes and full
 * objects), syncing; ids are per connection; a closed connection leaves nothing behind; HTTP refuses; a
 * client that stops reading is disconnected with close code 1008 and a reason instead of growing memory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addToPool,
  addresses,
  hex,
  rpc,
  signedTx,
  startInProcessNode,
  until,
  WsClient,
  type InProcessNode,
} from './logs-fixture.js';

let node: InProcessNode;

beforeAll(async () => {
  node = await startInProcessNode({ env: { SVC_NODE_NETWORK_RPC_WS_MAX_BUFFERED_BYTES: '65536' } });
});

afterAll(async () => {
  await node?.stop();
});

describe('eth_subscribe', () => {
  it('newHeads: one header per new canonical block, in order, with totalDifficulty and without transactions', async () => {
    const ws = await WsClient.open(node.wsUrl);
    const { result: id } = await ws.call('eth_subscribe', ['newHeads']);
    expect(id).toMatch(/^0x[1-9a-f][0-9a-f]{0,31}$/);
    const mined = await node.engine.miner.mineBlocks(3, { withTransactions: false });
    await until(() => ws.of(id).length >= 3, 'three heads');
    const heads = ws.of(id);
    expect(heads.map((h) => h.hash)).toEqual(mined.map((m) => hex(m.block.hash())));
    const td = await node.engine.chain.getTotalDifficulty(mined[2].block.hash());
    expect(heads[2]).toMatchObject({
      number: `0x${mined[2].block.header.number.toString(16)}`,
      totalDifficulty: `0x${td!.toString(16)}`,
      uncles: [],
    });
    expect(heads[2]).not.toHaveProperty('transactions');
    ws.close();
  });

  it('newPendingTransactions: hashes, or full transactions with options true', async () => {
    const ws = await WsClient.open(node.wsUrl);
    const hashes = (await ws.call('eth_subscribe', ['newPendingTransactions'])).result;
    const full = (await ws.call('eth_subscribe', ['newPendingTransactions', true])).result;
    const tx = signedTx(node.engine.chain, { from: 3, nonce: 0n, to: addresses[4], value: 7n });
    await addToPool(node.engine, [tx]);
    await until(() => ws.of(hashes).length >= 1 && ws.of(full).length >= 1, 'pending notifications');
    expect(ws.of(hashes)).toEqual([hex(tx.hash())]);
    expect(ws.of(full)[0]).toMatchObject({
      hash: hex(tx.hash()),
      from: hex(addresses[3]),
      value: '0x7',
      blockNumber: null,
    });
    await node.engine.miner.mineBlocks(1);
    ws.close();
  });

  it('ids belong to their connection; unsubscribe is true once; a closed socket leaves no subscription', async () => {
    const a = await WsClient.open(node.wsUrl);
    const b = await WsClient.open(node.wsUrl);
    const before = node.engine.logs.filters.subscriptionCount;
    const id = (await a.call('eth_subscribe', ['logs', { topics: [] }])).result;
    await a.call('eth_subscribe', ['newHeads']);
    expect((await a.call('eth_subscribe', ['syncing'])).result).toMatch(/^0x/);
    expect(node.engine.logs.filters.subscriptionCount).toBe(before + 2);
    expect((await b.call('eth_unsubscribe', [id])).result).toBe(false);
    expect((await a.call('eth_unsubscribe', [id])).result).toBe(true);
    expect((await a.call('eth_unsubscribe', [id])).result).toBe(false);
    a.close();
    await until(
      () => node.engine.logs.filters.subscriptionCount === before,
      'the closed connection to drop its subscriptions',
    );
    b.close();
  });

  it('is refused over HTTP and rejects a logs subscription without a filter object', async () => {
    expect((await rpc(node.url, 'eth_subscribe', ['newHeads'])).error?.code).toBe(-32601);
    const ws = await WsClient.open(node.wsUrl);
    expect((await ws.call('eth_subscribe', ['logs', true])).error?.code).toBe(-32602);
    ws.close();
  });

  it('disconnects a client that stops reading once its buffer is full, with close code 1008 and a reason', async () => {
    const ws = await WsClient.open(node.wsUrl);
    await ws.call('eth_subscribe', ['newHeads']);
    expect(node.engine.logs.filters.subscriptionCount).toBe(1);
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      ws.socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    // Stop reading, and ask for large answers (the whole OpenRPC document) faster than they are read: the
    // kernel buffers fill, then the server's unsent bytes pass the 64 KiB bound.
    const socket = (ws.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    socket.pause();
    for (let i = 0; i < 400; i++)
      ws.socket.send(JSON.stringify({ jsonrpc: '2.0', id: 10_000 + i, method: 'rpc.discover', params: [] }));
    await new Promise((r) => setTimeout(r, 1500));
    socket.resume();
    const { code, reason } = await closed;
    await until(
      () => node.engine.logs.filters.subscriptionCount === 0,
      'the server to drop the connection and its subscription',
    );
    expect(code).toBe(1008);
    expect(reason).toBe('slow consumer: more than 65536 bytes waiting to be sent');
  });
});

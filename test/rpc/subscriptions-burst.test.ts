/**
 * Subscriptions while blocks are imported back to back, then rewound: notifications of several blocks may
 * share one socket write (src/server/ws-outbox.ts), which must not change what each subscription receives:
 * every head and log once, in chain order, the dropped logs again with `removed: true`, nothing for a
 * subscription after its eth_unsubscribe.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addToPool,
  deployEmitter,
  hex,
  pingTx,
  startInProcessNode,
  until,
  WsClient,
  type InProcessNode,
} from './logs-fixture.js';

let node: InProcessNode;
let emitter: Uint8Array;

beforeAll(async () => {
  node = await startInProcessNode();
  emitter = await deployEmitter(node.engine);
});

afterAll(async () => {
  await node?.stop();
});

const brief = (log: { blockNumber: string; logIndex: string; data: string; removed: boolean }) =>
  `${Number(log.blockNumber)}:${Number(log.logIndex)}:${Number(BigInt(log.data))}${log.removed ? ':removed' : ''}`;

describe('eth_subscribe under a burst of imports', () => {
  it('delivers every head and log once, in order, with removals after a rewind, and nothing after unsubscribe', async () => {
    const a = await WsClient.open(node.wsUrl);
    const b = await WsClient.open(node.wsUrl);
    const heads = (await a.call('eth_subscribe', ['newHeads'])).result;
    const logs = (await a.call('eth_subscribe', ['logs', { address: hex(emitter) }])).result;
    const other = (await b.call('eth_subscribe', ['logs', { address: hex(emitter) }])).result;
    const gone = (await b.call('eth_subscribe', ['newHeads'])).result;
    expect((await b.call('eth_unsubscribe', [gone])).result).toBe(true);

    const start = node.engine.chain.getHead().header.number;
    let nonce = 1n;
    const expected: string[] = [];
    const minedHashes: string[] = [];
    for (let i = 0; i < 6; i++) {
      await addToPool(node.engine, [
        pingTx(node.engine, emitter, nonce++, 10 * i + 1),
        pingTx(node.engine, emitter, nonce++, 10 * i + 2),
      ]);
      const [mined] = await node.engine.miner.mineBlocks(1);
      minedHashes.push(hex(mined.block.hash()));
      const n = Number(mined.block.header.number);
      expected.push(`${n}:0:${10 * i + 1}`, `${n}:1:${10 * i + 2}`);
    }
    // Drop the last two blocks: their logs come again, removed, lowest block first.
    await node.engine.chain.rewindTo(start + 4n);
    expected.push(...expected.slice(8).map((l) => `${l}:removed`));
    // The pool may take the dropped transactions back; either way the next block's logs are what its receipts say.
    if (node.engine.pool.get(pingTx(node.engine, emitter, nonce - 4n, 51).hash()) === undefined) {
      await addToPool(node.engine, [pingTx(node.engine, emitter, nonce - 4n, 99)]);
    }
    const [last] = await node.engine.miner.mineBlocks(1);
    const receipts = (await node.engine.chain.getReceipts(last.block.hash()))!;
    const lastLogs = receipts
      .flatMap((r) => r.logs)
      .map((l, i) => `${Number(last.block.header.number)}:${i}:${Number(BigInt(hex(l.data)))}`);
    expect(lastLogs.length).toBeGreaterThan(0);
    expected.push(...lastLogs);

    await until(
      () => a.of(logs).length >= expected.length && b.of(other).length >= expected.length && a.of(heads).length >= 7,
      'every notification',
    );
    await new Promise((r) => setTimeout(r, 100)); // anything extra (a duplicate) would have arrived by now
    expect(a.of(logs).map(brief)).toEqual(expected);
    expect(b.of(other).map(brief)).toEqual(expected);
    expect(a.of(heads).map((h) => h.hash)).toEqual([...minedHashes, hex(last.block.hash())]);
    expect(b.of(gone)).toEqual([]);
    a.close();
    b.close();
  });
});

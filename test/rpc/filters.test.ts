/**
 * Polled filters over HTTP: block, pending-transaction and log filters report only what is new since the
 * previous poll; eth_getFilterLogs; eth_uninstallFilter true/false; unknown ids; the configurable idle
 * timeout that a poll resets; eth_pendingTransactions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addToPool,
  addresses,
  deployEmitter,
  hex,
  pingTx,
  rpc,
  signedTx,
  startInProcessNode,
  word,
  type InProcessNode,
} from './logs-fixture.js';

let node: InProcessNode;
let emitter: Uint8Array;
let nonce = 1n;

beforeAll(async () => {
  node = await startInProcessNode({ env: { SVC_NODE_FILTER_FILTER_TIMEOUT: '2500ms' } });
  emitter = await deployEmitter(node.engine);
});

afterAll(async () => {
  await node?.stop();
});

const ping = (n: number) => pingTx(node.engine, emitter, nonce++, n);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('polled filters', () => {
  it('a block filter returns the new canonical hashes once', async () => {
    const id = (await rpc(node.url, 'eth_newBlockFilter')).result;
    expect(id).toMatch(/^0x[1-9a-f][0-9a-f]*$/);
    expect((await rpc(node.url, 'eth_getFilterChanges', [id])).result).toEqual([]);
    const mined = await node.engine.miner.mineBlocks(2, { withTransactions: false });
    expect((await rpc(node.url, 'eth_getFilterChanges', [id])).result).toEqual(mined.map((m) => hex(m.block.hash())));
    expect((await rpc(node.url, 'eth_getFilterChanges', [id])).result).toEqual([]);
    expect((await rpc(node.url, 'eth_getFilterLogs', [id])).result).toEqual([]);
  });

  it('a pending-transaction filter and eth_pendingTransactions see transactions entering the pool', async () => {
    const id = (await rpc(node.url, 'eth_newPendingTransactionFilter')).result;
    const tx = signedTx(node.engine.chain, { from: 1, nonce: 0n, to: addresses[2], value: 5n });
    await addToPool(node.engine, [tx]);
    expect((await rpc(node.url, 'eth_getFilterChanges', [id])).result).toEqual([hex(tx.hash())]);
    const pending = (await rpc(node.url, 'eth_pendingTransactions')).result;
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({
      hash: hex(tx.hash()),
      from: hex(addresses[1]),
      to: hex(addresses[2]),
      value: '0x5',
      blockHash: null,
      blockNumber: null,
    });
    await node.engine.miner.mineBlocks(1);
    expect((await rpc(node.url, 'eth_pendingTransactions')).result).toEqual([]);
    expect((await rpc(node.url, 'eth_getFilterChanges', [id])).result).toEqual([]);
  });

  it('a log filter returns only new matching logs; eth_getFilterLogs returns its whole range', async () => {
    const from = node.engine.chain.getHead().header.number + 1n;
    const id = (
      await rpc(node.url, 'eth_newFilter', [
        { fromBlock: `0x${from.toString(16)}`, address: hex(emitter), topics: [null] },
      ])
    ).result;
    await addToPool(node.engine, [ping(1), ping(2)]);
    await node.engine.miner.mineBlocks(1);
    const first = (await rpc(node.url, 'eth_getFilterChanges', [id])).result;
    expect(first.map((l: any) => l.data)).toEqual([hex(word(1)), hex(word(2))]);
    await addToPool(node.engine, [ping(3)]);
    await node.engine.miner.mineBlocks(1);
    expect((await rpc(node.url, 'eth_getFilterChanges', [id])).result.map((l: any) => l.data)).toEqual([hex(word(3))]);
    expect((await rpc(node.url, 'eth_getFilterLogs', [id])).result.map((l: any) => l.data)).toEqual([
      hex(word(1)),
      hex(word(2)),
      hex(word(3)),
    ]);
    expect((await rpc(node.url, 'eth_newFilter', [{ blockHash: hex(new Uint8Array(32)) }])).error?.code).toBe(-32602);
  });

  it('uninstall answers true once, then false; unknown ids give -32000 "filter not found"', async () => {
    const id = (await rpc(node.url, 'eth_newBlockFilter')).result;
    expect((await rpc(node.url, 'eth_uninstallFilter', [id])).result).toBe(true);
    expect((await rpc(node.url, 'eth_uninstallFilter', [id])).result).toBe(false);
    expect((await rpc(node.url, 'eth_getFilterChanges', [id])).error).toEqual({
      code: -32000,
      message: 'filter not found',
    });
    expect((await rpc(node.url, 'eth_getFilterLogs', ['0x1'])).error).toEqual({
      code: -32000,
      message: 'filter not found',
    });
  });

  it('an idle filter expires after the configured timeout; polling keeps one alive', async () => {
    const idle = (await rpc(node.url, 'eth_newBlockFilter')).result;
    const polled = (await rpc(node.url, 'eth_newBlockFilter')).result;
    for (let i = 0; i < 9; i++) {
      await sleep(330);
      expect((await rpc(node.url, 'eth_getFilterChanges', [polled])).result).toEqual([]);
    }
    expect((await rpc(node.url, 'eth_getFilterChanges', [idle])).error?.message).toBe('filter not found');
    expect((await rpc(node.url, 'eth_uninstallFilter', [polled])).result).toBe(true);
  });
});

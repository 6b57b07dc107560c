/**
 * eth_getLogs answers from the block log cache and the kept JSON texts (chain/logs/block-log-cache.ts,
 * handlers/format/log-json.ts) are byte for byte what the plain path makes: each canonical block's receipts read
 * from the chain, positioned, formatted and JSON.stringify'd as one response. Checked on first and repeated queries,
 * in a batch and over WebSocket, and across a reorganisation whose side chain holds other logs at the dropped block's
 * height: the range then answers the side chain's logs, the dropped block (by hash) its own, and the filter's
 * `removed: true` copies are not taken from the texts kept for the same logs as `removed: false`.
 */
import type { Block } from '@ethereumjs/block';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCriteria, type LogCriteria, logsOfBlock } from '../../src/chain/logs/index.js';
import { formatLog } from '../../src/handlers/format/log.js';
import {
  addToPool,
  deployEmitter,
  hex,
  pingTx,
  PING_TOPIC,
  rpc,
  startInProcessNode,
  WsClient,
  type InProcessNode,
} from './logs-fixture.js';

let node: InProcessNode;
let emitter: Uint8Array;
const nonces = [1n, 0n];

beforeAll(async () => {
  node = await startInProcessNode();
  emitter = await deployEmitter(node.engine);
});

afterAll(async () => {
  await node?.stop();
});

const ping = (n: number, from = 0) => pingTx(node.engine, emitter, nonces[from]!++, n, from);
const quantity = (n: bigint) => `0x${n.toString(16)}`;

/** The raw HTTP body of one request. */
async function rawBody(body: unknown): Promise<string> {
  const res = await fetch(node.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.text();
}

/** The plain path: a block's receipts read from the chain, its logs positioned, filtered and formatted afresh. */
async function plainLogsOf(block: Block, criteria: LogCriteria, removed = false) {
  const receipts = (await node.engine.chain.getReceipts(block.hash()))!;
  const { header } = block;
  const source = {
    header: {
      hash: block.hash(),
      number: header.number,
      parentHash: header.parentHash,
      timestamp: header.timestamp,
      logsBloom: header.logsBloom,
    },
    transactionHashes: block.transactions.map((tx) => tx.hash()),
    receipts,
  };
  return logsOfBlock(source, compileCriteria(criteria), removed).map(formatLog);
}

async function plainRange(from: bigint, to: bigint, criteria: LogCriteria) {
  const out = [];
  for (let n = from; n <= to; n++) out.push(...(await plainLogsOf((await node.engine.chain.getBlock(n))!, criteria)));
  return out;
}

const request = (filter: Record<string, unknown>, id = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'eth_getLogs',
  params: [filter],
});

describe('eth_getLogs from the block log cache and kept JSON texts', () => {
  it('answers byte for byte as the plain path, before and after a reorganisation', async () => {
    const criteria = { addresses: [emitter], topics: [PING_TOPIC].map((t) => Buffer.from(t.slice(2), 'hex')) };
    const filter = { address: hex(emitter), topics: [PING_TOPIC] };
    // Blocks of several logs each (logIndex counts across the block), and one without any.
    await addToPool(node.engine, [ping(1), ping(2), ping(3)]);
    await node.engine.miner.mineBlocks(1);
    await node.engine.miner.mineBlocks(1, { withTransactions: false });
    await addToPool(node.engine, [ping(4), ping(5)]);
    await node.engine.miner.mineBlocks(1);
    const forkPoint = node.engine.chain.getHead();
    const watcher = (await rpc(node.url, 'eth_newFilter', [filter])).result as string;
    const poll = () => rawBody({ jsonrpc: '2.0', id: 1, method: 'eth_getFilterChanges', params: [watcher] });
    await addToPool(node.engine, [ping(501), ping(502)]);
    const [dropped] = await node.engine.miner.mineBlocks(1);
    const head = dropped.block.header.number;
    const range = { ...filter, fromBlock: '0x1', toBlock: quantity(head) };
    const before = await plainRange(1n, head, criteria);
    expect(await poll()).toBe(
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: await plainLogsOf(dropped.block, criteria) }),
    );
    expect(before.length).toBe(7);
    const expected = JSON.stringify({ jsonrpc: '2.0', id: 1, result: before });
    expect(await rawBody(request(range))).toBe(expected); // read from the receipts, then cached
    expect(await rawBody(request(range))).toBe(expected); // from the cache and the kept texts
    // A part of the range, and any address: the same cached blocks, other selections.
    const anyAddress = { fromBlock: quantity(head - 1n), toBlock: quantity(head) };
    expect(await rawBody(request(anyAddress))).toBe(
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: await plainRange(head - 1n, head, {}) }),
    );
    // Answers in flight together: each is written from a buffer of its own (one may be the reused one).
    const ranges = [1n, 2n, 3n, 4n, head].flatMap((from) => [
      { ...filter, fromBlock: quantity(from) },
      { fromBlock: quantity(from) },
    ]);
    const expectedEach = await Promise.all(
      ranges.map(async (f) =>
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          result: await plainRange(BigInt(f.fromBlock), head, 'address' in f ? criteria : {}),
        }),
      ),
    );
    for (let round = 0; round < 3; round++)
      expect(await Promise.all(ranges.map((f) => rawBody(request(f))))).toEqual(expectedEach);
    // A batch, and WebSocket, write the same result.
    const batch = await rawBody([request(range, 7), { jsonrpc: '2.0', id: 8, method: 'eth_chainId', params: [] }]);
    expect(JSON.parse(batch)[0]).toEqual(JSON.parse(expected.replace('"id":1', '"id":7')));
    expect(batch.startsWith(`[${expected.replace('"id":1', '"id":7')},`)).toBe(true);
    const ws = await WsClient.open(node.wsUrl);
    expect((await ws.call('eth_getLogs', [range])).result).toEqual(before);

    // Reorganisation: a heavier side chain from the fork point, whose first block holds other logs at the dropped
    // block's height (a cache by height would answer the dropped block's logs there).
    await addToPool(node.engine, [ping(601, 1), ping(602, 1), ping(603, 1)]);
    const side = await node.engine.miner.mineBlocks(2, { parentHash: forkPoint.hash() });
    expect(node.engine.chain.getHead().hash()).toEqual(side[1]!.block.hash());
    expect(side[0]!.block.header.number).toBe(head);
    expect(side[0]!.block.transactions.length).toBe(3);
    const newHead = side[1]!.block.header.number;
    const after = await plainRange(1n, newHead, criteria);
    expect(after.map((l) => l.data.slice(-3))).toEqual(['001', '002', '003', '004', '005', '259', '25a', '25b']);
    const afterBody = JSON.stringify({ jsonrpc: '2.0', id: 1, result: after });
    const newRange = { ...range, toBlock: quantity(newHead) };
    expect(await rawBody(request(newRange))).toBe(afterBody);
    expect(await rawBody(request(newRange))).toBe(afterBody);
    expect((await ws.call('eth_getLogs', [newRange])).result).toEqual(after);
    // The dropped block by hash (EIP-234: any stored block), from its cached logs.
    const byHash = { ...filter, blockHash: hex(dropped.block.hash()) };
    expect(await rawBody(request(byHash))).toBe(
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: await plainLogsOf(dropped.block, criteria) }),
    );
    // The filter reports the dropped block's logs as removed, not as the texts kept for them.
    const changes = await poll();
    const removed = await plainLogsOf(dropped.block, criteria, true);
    const added = await plainRange(head, newHead, criteria);
    expect(changes).toBe(JSON.stringify({ jsonrpc: '2.0', id: 1, result: [...removed, ...added] }));
    ws.close();
  });
});

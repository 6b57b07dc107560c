import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { indexWrites, LOG_INDEX_TAG, unindexWrites } from '../../../src/chain/logs/log-index.js';
import { LogQueries } from '../../../src/chain/logs/query.js';
import { addr, indexedChain, log } from './synthetic-chain.js';

type Env = Awaited<ReturnType<typeof indexedChain>>;
let env: Env;
beforeEach(async () => {
  env = await indexedChain();
});
afterEach(() => env.close());

describe('index writes', () => {
  it('writes one key per distinct (address | topic position, block) under the L tag', async () => {
    const block = await env.chain.extend([[log(1, [5, 6]), log(1, [5, 6])], [log(2, [6])]]);
    const ops = indexWrites(block, block.receipts);
    // any-log, address 1, address 2, topic 5 at 0, topic 6 at 1, topic 6 at 0.
    expect(ops).toHaveLength(6);
    expect(ops.every((op) => op.type === 'put' && op.key[0] === LOG_INDEX_TAG)).toBe(true);
    expect(indexWrites(env.chain.genesis, [])).toEqual([]);
  });

  it('unindexWrites removes exactly what indexWrites added', async () => {
    const a = await env.chain.extend([[log(1, [5])]]);
    const b = await env.chain.extend([[log(1, [5])]]);
    const q = new LogQueries({ source: env.chain, index: env.db });
    expect(await q.queryLogs({ fromBlock: 0n, toBlock: 2n, addresses: [addr(1)] })).toHaveLength(2);
    await env.db.batch(unindexWrites(a, a.receipts));
    const left = await q.queryLogs({ fromBlock: 0n, toBlock: 2n, addresses: [addr(1)] });
    expect(left.map((l) => l.blockHash)).toEqual([b.hash()]);
    let keys = 0;
    for await (const _ of env.db.keys()) keys++;
    expect(keys).toBe(3);
  });
});

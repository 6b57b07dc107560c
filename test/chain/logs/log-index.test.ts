import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  indexWrites,
  LOG_INDEX_TAG,
  postingKeys,
  postingPrefixes,
  unindexWrites,
} from '../../../src/chain/logs/log-index.js';
import { compileCriteria } from '../../../src/chain/logs/match.js';
import { seededRandom } from '../../helpers/seeded-random.js';
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

describe('posting keys', () => {
  it('are the posting prefixes as latin1 text, group for group, on random criteria (bytes 0-255)', () => {
    const random = seededRandom(7);
    const bytes = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(random() * 256));
    const some = (n: number) => Array.from({ length: Math.floor(random() * 3) }, () => bytes(n));
    for (let i = 0; i < 200; i++) {
      const c = compileCriteria({
        ...(random() < 0.6 ? { addresses: some(20) } : {}),
        topics: Array.from({ length: Math.floor(random() * 5) }, () => (random() < 0.3 ? null : some(32))),
      });
      const expected = postingPrefixes(c).map((group) => group.map((p) => Buffer.from(p).toString('latin1')));
      expect(postingKeys(c)).toEqual(expected);
    }
  });
});

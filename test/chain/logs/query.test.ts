import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LimitExceededError, UnknownBlockError } from '../../../src/chain/logs/errors.js';
import { LogQueries } from '../../../src/chain/logs/query.js';
import type { Log, LogSource } from '../../../src/chain/logs/types.js';
import { addr, indexedChain, log, topic, type SyntheticChain } from './synthetic-chain.js';

type Env = Awaited<ReturnType<typeof indexedChain>>;
let env: Env;
let chain: SyntheticChain;

beforeEach(async () => {
  env = await indexedChain();
  chain = env.chain;
});
afterEach(() => env.close());

const indexed = (limits = {}) => new LogQueries({ source: chain, index: env.db, ...limits });
const bloomOnly = (limits = {}) => new LogQueries({ source: chain, ...limits });
const brief = (logs: Log[]) =>
  logs.map(
    (l) => `${l.blockNumber}/${l.transactionIndex}/${l.logIndex}/${l.address[19]}${l.removed ? '/removed' : ''}`,
  );

describe('log positions', () => {
  it('counts logIndex across the block and reports transaction index and hash', async () => {
    const b = await chain.extend([[log(1, [1]), log(2, [1])], [], [log(3, [1]), log(1, [2]), log(4, [])]]);
    const logs = await indexed().queryLogs({ fromBlock: 0n, toBlock: 1n });
    expect(brief(logs)).toEqual(['1/0/0/1', '1/0/1/2', '1/2/2/3', '1/2/3/1', '1/2/4/4']);
    expect(logs[2].transactionHash).toEqual(b.transactionHashes[2]);
    expect(logs[2].blockHash).toEqual(b.hash());
    expect(logs.every((l) => l.removed === false)).toBe(true);
    // Filtering keeps block-wide indexes.
    const only = await indexed().queryLogs({ fromBlock: 1n, toBlock: 1n, addresses: [addr(1)] });
    expect(brief(only)).toEqual(['1/0/0/1', '1/2/3/1']);
  });
});

describe('queryLogs over a range', () => {
  beforeEach(async () => {
    for (let i = 1; i <= 30; i++) {
      // Address i%3, topic0 i%5, topic1 = i; every 7th block has no logs at all.
      await chain.extend(i % 7 === 0 ? [[]] : [[log(i % 3, [i % 5, i])], [log(9, [i % 5])]]);
    }
  });

  const cases: [string, Parameters<LogQueries['queryLogs']>[0]][] = [
    ['everything', { fromBlock: 0n, toBlock: 30n }],
    ['one address', { fromBlock: 1n, toBlock: 30n, addresses: [addr(1)] }],
    ['two addresses', { fromBlock: 5n, toBlock: 25n, addresses: [addr(1), addr(2)] }],
    ['address and topic0', { fromBlock: 0n, toBlock: 30n, addresses: [addr(2)], topics: [topic(3)] }],
    ['topic1 OR', { fromBlock: 0n, toBlock: 30n, topics: [null, [topic(4), topic(11), topic(29)]] }],
    ['wildcard position needs a second topic', { fromBlock: 0n, toBlock: 30n, topics: [null, null] }],
    ['no match', { fromBlock: 0n, toBlock: 30n, addresses: [addr(8)] }],
    ['toBlock beyond head', { fromBlock: 28n, toBlock: 1000n, topics: [topic(0)] }],
  ];

  it.each(cases)('index and bloom scan agree: %s', async (_name, query) => {
    const viaIndex = await indexed().queryLogs(query);
    const viaBloom = await bloomOnly().queryLogs(query);
    expect(brief(viaIndex)).toEqual(brief(viaBloom));
  });

  it('answers exactly the matching logs', async () => {
    const logs = await indexed().queryLogs({ fromBlock: 0n, toBlock: 30n, addresses: [addr(2)], topics: [topic(3)] });
    // i % 3 == 2 and i % 5 == 3: i = 8, 23.
    expect(logs.map((l) => l.blockNumber)).toEqual([8n, 23n]);
    const wide = await indexed().queryLogs({ fromBlock: 0n, toBlock: 30n, topics: [null, null] });
    expect(wide).toHaveLength(30 - 4);
    expect(wide.every((l) => l.address[19] !== 9)).toBe(true);
  });

  it('reads receipts only of blocks the index names', async () => {
    chain.receiptReads = 0;
    await indexed().queryLogs({ fromBlock: 0n, toBlock: 30n, topics: [null, topic(17)] });
    expect(chain.receiptReads).toBe(1);
  });

  it('returns [] when fromBlock is above toBlock or the head', async () => {
    expect(await indexed().queryLogs({ fromBlock: 10n, toBlock: 9n })).toEqual([]);
    expect(await indexed().queryLogs({ fromBlock: 31n, toBlock: 40n })).toEqual([]);
  });

  it('follows the canonical chain after a reorganisation (side-chain index entries are ignored)', async () => {
    const ancestor = chain.blockAt(27n)!;
    let side = await chain.build([[log(5, [42])]], ancestor, 'side');
    side = await chain.build([[log(5, [42])]], side, 'side');
    const beforeReorg = await indexed().queryLogs({ fromBlock: 0n, toBlock: 30n, addresses: [addr(5)] });
    expect(beforeReorg).toEqual([]);
    side = await chain.build([[log(5, [43])]], side, 'side');
    side = await chain.build([[]], side, 'side');
    chain.reorgTo(side);
    for (const q of [indexed(), bloomOnly()]) {
      expect(brief(await q.queryLogs({ fromBlock: 0n, toBlock: 31n, addresses: [addr(5)] }))).toEqual([
        '28/0/0/5',
        '29/0/0/5',
        '30/0/0/5',
      ]);
      const dropped = await q.queryLogs({ fromBlock: 28n, toBlock: 30n, topics: [null, topic(29)] });
      expect(dropped).toEqual([]);
    }
  });
});

describe('EIP-234 blockHash queries', () => {
  it('answers the logs of one block, canonical or not, and fails on an unknown hash', async () => {
    const a = await chain.extend([[log(1, [1]), log(2, [2])]]);
    const side = await chain.build([[log(3, [3])]], chain.genesis, 'side');
    expect(brief(await indexed().queryLogs({ blockHash: a.hash(), topics: [topic(2)] }))).toEqual(['1/0/1/2']);
    expect(brief(await indexed().queryLogs({ blockHash: side.hash() }))).toEqual(['1/0/0/3']);
    chain.receiptReads = 0;
    expect(await indexed().queryLogs({ blockHash: a.hash(), addresses: [addr(3)] })).toEqual([]);
    expect(chain.receiptReads).toBe(0); // the bloom ruled it out
    await expect(indexed().queryLogs({ blockHash: new Uint8Array(32).fill(1) })).rejects.toBeInstanceOf(
      UnknownBlockError,
    );
  });
});

describe('limits', () => {
  it('refuses a block range wider than the limit, saying the limit and a range that fits', async () => {
    for (let i = 0; i < 12; i++) await chain.extend([[log(1, [1])]]);
    const q = indexed({ maxBlockRange: 10 });
    const err = await q.queryLogs({ fromBlock: 2n, toBlock: 11n + 1n }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LimitExceededError);
    expect((err as LimitExceededError).limitKind).toBe('blockRange');
    expect((err as Error).message).toMatch(
      /more than the limit of 10; query at most 10 blocks at a time, e\.g\. 0x2\.\.0xb$/,
    );
    expect(await q.queryLogs({ fromBlock: 2n, toBlock: 11n })).toHaveLength(10);
    // The range is measured after clamping to the head.
    expect(await q.queryLogs({ fromBlock: 5n, toBlock: 1_000_000n })).toHaveLength(8);
  });

  it('defaults to 10,000 blocks, measured after clamping toBlock to the head', async () => {
    expect(await indexed().queryLogs({ fromBlock: 0n, toBlock: 10_000n })).toEqual([]); // short chain: clamped
    const tall: LogSource = {
      headNumber: () => 20_000n,
      canonicalHash: async () => undefined,
      header: async () => undefined,
      blockReceipts: async () => undefined,
    };
    const q = new LogQueries({ source: tall });
    await expect(q.queryLogs({ fromBlock: 0n, toBlock: 10_000n })).rejects.toThrow(
      /spans 10001 blocks, more than the limit of 10000/,
    );
    await expect(q.queryLogs({ fromBlock: 1n, toBlock: 10_000n })).resolves.toEqual([]);
  });

  it('refuses more results than the limit, suggesting the range that fits', async () => {
    for (let i = 1; i <= 6; i++) await chain.extend([[log(1, [1]), log(1, [2])]]);
    for (const q of [indexed({ maxResults: 5 }), bloomOnly({ maxResults: 5 })]) {
      const err = await q.queryLogs({ fromBlock: 1n, toBlock: 6n, addresses: [addr(1)] }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LimitExceededError);
      expect((err as LimitExceededError).suggestion).toEqual({ fromBlock: 1n, toBlock: 2n });
      expect((err as Error).message).toBe('query returned more than 5 results; narrow the block range, e.g. 0x1..0x2');
      expect(await q.queryLogs({ fromBlock: 1n, toBlock: 2n, addresses: [addr(1)] })).toHaveLength(4);
      expect(await q.queryLogs({ fromBlock: 1n, toBlock: 5n, topics: [topic(2)] })).toHaveLength(5); // exactly the limit is fine
    }
  });

  it('says when one block alone has too many matches', async () => {
    await chain.extend([[log(1, [1]), log(1, [1]), log(1, [1])]]);
    const err = await indexed({ maxResults: 2 })
      .queryLogs({ fromBlock: 1n, toBlock: 1n })
      .catch((e: unknown) => e);
    expect((err as Error).message).toMatch(
      /more than 2 results; block 0x1 alone has more than 2 matching logs, narrow the filter/,
    );
    expect((err as LimitExceededError).suggestion).toBeUndefined();
  });

  it('rejects nonsensical limits', () => {
    expect(() => indexed({ maxResults: 0 })).toThrow(RangeError);
    expect(() => indexed({ maxBlockRange: 1.5 })).toThrow(RangeError);
  });
});

describe('index scans that stop early', () => {
  it('combine a rare criterion with one in every block without losing or inventing matches', async () => {
    // topic 1 at position 0 in every block; address 7 every 37th block, with topic 1 only on every second of those.
    for (let i = 1; i <= 600; i++) {
      const rare = i % 37 === 0 ? [log(7, [(i / 37) % 2 === 0 ? 1 : 2, i % 256])] : [];
      await chain.extend([[log(i % 5, [1, i % 256])], rare]);
    }
    const queries: Parameters<LogQueries['queryLogs']>[0][] = [
      { fromBlock: 0n, toBlock: 600n, addresses: [addr(7)], topics: [topic(1)] },
      { fromBlock: 0n, toBlock: 600n, topics: [topic(1)], addresses: [addr(7), addr(9)] },
      { fromBlock: 100n, toBlock: 500n, addresses: [addr(7)], topics: [[topic(1), topic(2)]] },
      { fromBlock: 0n, toBlock: 600n, topics: [topic(1), topic(74 % 256)] },
    ];
    for (const query of queries) {
      const viaBloom = await bloomOnly().queryLogs(query);
      chain.receiptReads = 0;
      const viaIndex = await indexed().queryLogs(query);
      expect(viaIndex.length).toBeGreaterThan(0);
      expect(brief(viaIndex)).toEqual(brief(viaBloom));
      expect(chain.receiptReads).toBeLessThanOrEqual(16);
    }
  });
});

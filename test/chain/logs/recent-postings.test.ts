/**
 * The log index's in-memory postings of recent blocks (recent-postings.ts) against the index in LevelDB and the
 * bloom scan: same logs for every query, whether a range lies above the floor, below it or across it; fed by
 * ChainDB's writes (write-behind included) and bounded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChainDB, WriteBatch } from '../../../src/chain/db/chain-db.js';
import { indexWrites, unindexWrites } from '../../../src/chain/logs/log-index.js';
import { compileCriteria } from '../../../src/chain/logs/match.js';
import { LogQueries } from '../../../src/chain/logs/query.js';
import { RecentLogPostings } from '../../../src/chain/logs/recent-postings.js';
import type { Log, LogQuery } from '../../../src/chain/logs/types.js';
import { addr, log, SyntheticChain, topic, type SyntheticBlock } from './synthetic-chain.js';

let dir: string;
let db: ChainDB;
let chain: SyntheticChain;
/** LevelDB key iterators opened by queries (the recent postings' point is to open none). */
let iterators: number;

const reader = () => ({
  keys: (range: Parameters<ChainDB['keys']>[0]) => {
    iterators++;
    return db.keys(range);
  },
  observeTable: db.observeTable.bind(db),
});

async function open(writeBehind: boolean): Promise<void> {
  dir = mkdtempSync(join(tmpdir(), 'recent-postings-'));
  db = await ChainDB.open(dir, { writeBehind });
  chain = new SyntheticChain((block) => {
    const batch = new WriteBatch();
    batch.ops.push(...indexWrites(block, block.receipts));
    return db.write(batch);
  });
  iterators = 0;
}

afterEach(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

const brief = (logs: Log[]) => logs.map((l) => `${l.blockNumber}/${l.logIndex}/${l.address[19]}`);

/** Address i%4, topic0 i%3, topic1 i%7; every 5th block empty. */
const blockLogs = (i: number) => (i % 5 === 0 ? [] : [[log(i % 4, [i % 3, i % 7])], [log(9, [i % 3])]]);

function queriesOver(head: number): LogQuery[] {
  const out: LogQuery[] = [];
  const ranges: [number, number][] = [
    [0, head],
    [1, 10],
    [12, head],
    [head - 5, head],
    [20, 25],
  ];
  for (const [from, to] of ranges) {
    const range = { fromBlock: BigInt(from), toBlock: BigInt(to) };
    out.push(
      range,
      { ...range, addresses: [addr(1)] },
      { ...range, addresses: [addr(2), addr(3)], topics: [topic(1)] },
      { ...range, topics: [null, [topic(2), topic(5)]] },
      { ...range, addresses: [addr(9)], topics: [topic(0), null] },
      { ...range, addresses: [addr(8)] },
    );
  }
  return out;
}

describe('recent log postings', () => {
  describe('over a chain indexed partly before they follow it', () => {
    let recent: RecentLogPostings;
    let side: SyntheticBlock;

    beforeEach(async () => {
      await open(false);
      for (let i = 1; i <= 15; i++) await chain.extend(blockLogs(i));
      // A side block above the head at start: the floor must be above it, not above the head.
      side = await chain.build([[log(1, [1, 1])]], chain.blockAt(14n)!, 'side');
      await chain.build([[log(1, [1, 1])]], side, 'side');
      const followed = RecentLogPostings.follow(reader(), 40);
      recent = followed.postings;
      await followed.ready;
      iterators = 0;
      for (let i = 16; i <= 40; i++) await chain.extend(blockLogs(i));
    });

    it('starts above the highest block already indexed, canonical or not', () => {
      expect(recent.floor).toBeGreaterThanOrEqual(17n);
    });

    it('answers as the index in LevelDB and the bloom scan do, above, below and across the floor, within its bound', async () => {
      expect(recent.size).toBeLessThanOrEqual(40);
      const floor = recent.floor!;
      expect(floor).toBeGreaterThan(17n); // the bound of 40 postings evicted the oldest heights
      const withRecent = new LogQueries({ source: chain, index: reader(), recent });
      const levelOnly = new LogQueries({ source: chain, index: reader() });
      const bloom = new LogQueries({ source: chain });
      const queries = queriesOver(40);
      queries.push({ fromBlock: floor, toBlock: 40n, topics: [topic(1)] }, { fromBlock: floor - 1n, toBlock: floor });
      for (const query of queries) {
        const expected = brief(await bloom.queryLogs(query));
        expect(
          brief(await withRecent.queryLogs(query)),
          JSON.stringify(query, (_, v) => String(v)),
        ).toEqual(expected);
        expect(brief(await levelOnly.queryLogs(query))).toEqual(expected);
      }
    });

    it('names exactly the blocks holding a posting of every criterion, in ascending height', () => {
      // Exact, unlike LevelDB's scan (a superset the receipts' match prunes): a wrong candidate costs no wrong log,
      // so the logs compared above cannot see it.
      const floor = recent.floor!;
      const has = (
        block: SyntheticBlock,
        test: (l: { address: Uint8Array; topics: readonly Uint8Array[] }) => boolean,
      ) => block.receipts.some((r) => r.logs.some(test));
      const same = (a: Uint8Array, b: Uint8Array | undefined) => b !== undefined && Buffer.from(a).equals(b);
      for (const query of queriesOver(40)) {
        if (!('fromBlock' in query)) continue;
        const from = query.fromBlock > floor ? query.fromBlock : floor;
        const c = compileCriteria(query);
        const expected: bigint[] = [];
        for (let n = from; n <= query.toBlock; n++) {
          const block = chain.blockAt(n)!;
          const address = c.addresses === undefined || has(block, (l) => c.addresses!.some((a) => same(a, l.address)));
          const topics = c.topics.every(
            (set, i) => set === undefined || has(block, (l) => set.some((t) => same(t, l.topics[i]))),
          );
          const any = block.receipts.some((r) => r.logs.length > 0);
          if (address && topics && any) expected.push(n);
        }
        const got = recent.candidates(c, from, query.toBlock);
        expect(
          got.map((b) => b.number),
          JSON.stringify(query, (_, v) => String(v)),
        ).toEqual(expected);
        for (const b of got) expect(b.hash).toEqual(chain.blockAt(b.number)!.header.hash);
      }
    });

    it('opens no LevelDB iterator for a range above the floor', async () => {
      const queries = new LogQueries({ source: chain, index: reader(), recent });
      iterators = 0;
      const logs = await queries.queryLogs({ fromBlock: recent.floor!, toBlock: 40n, addresses: [addr(1)] });
      expect(logs.length).toBeGreaterThan(0);
      expect(iterators).toBe(0);
      await queries.queryLogs({ fromBlock: 1n, toBlock: 40n, addresses: [addr(1)] });
      expect(iterators).toBeGreaterThan(0);
    });
  });

  it('follows deletes and side blocks that become canonical', async () => {
    await open(false);
    const followed = RecentLogPostings.follow(reader());
    await followed.ready;
    const recent = followed.postings;
    expect(recent.floor).toBe(0n);
    for (let i = 1; i <= 6; i++) await chain.extend(blockLogs(i));
    const fork = await chain.build([[log(7, [1])]], chain.blockAt(4n)!, 'fork');
    const forkChild = await chain.build([[log(7, [2])]], fork, 'fork');
    const queries = new LogQueries({ source: chain, index: reader(), recent });
    const bloom = new LogQueries({ source: chain });
    const query = { fromBlock: 0n, toBlock: 10n, addresses: [addr(7)] };
    expect(await queries.queryLogs(query)).toEqual([]);
    chain.reorgTo(forkChild);
    expect(brief(await queries.queryLogs(query))).toEqual(['5/0/7', '6/0/7']);
    // A pruned block's postings go (the block itself is still readable here: the index alone decides).
    const batch = new WriteBatch();
    batch.ops.push(...unindexWrites(forkChild, forkChild.receipts));
    await db.write(batch);
    expect(brief(await queries.queryLogs(query))).toEqual(['5/0/7']);
    expect(brief(await bloom.queryLogs(query))).toEqual(['5/0/7', '6/0/7']);
    expect(iterators).toBe(1); // the start-up read only
  });

  it('under write-behind, answers a block just written without waiting for its write', async () => {
    await open(true);
    const followed = RecentLogPostings.follow(reader());
    await followed.ready;
    iterators = 0;
    const queries = new LogQueries({ source: chain, index: reader(), recent: followed.postings });
    await chain.extend(blockLogs(1));
    await chain.extend(blockLogs(2));
    const logs = queries.queryLogs({ fromBlock: 0n, toBlock: 2n, addresses: [addr(2)] });
    const written = db.flushed().then(() => 'written');
    // Answered from memory: ahead of the queued group's write (which a LevelDB key scan would have waited for).
    expect(await Promise.race([logs.then(brief), written])).toEqual(['2/0/2']);
    expect(iterators).toBe(0);
  });
});

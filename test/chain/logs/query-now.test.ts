/**
 * LogQueries.queryLogsNow (a range answered in the caller's turn from memory: recent postings, cached canonical
 * hashes, the block log cache) against queryLogs over LevelDB's index alone and over the bloom scan, on random chains
 * with side chains and reorganisations: whenever it answers, the same logs (every field) or the same error; when
 * something it needs is not in memory (a range below the postings' floor, a canonical hash not cached, a block's logs
 * not cached), no answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChainDB, WriteBatch } from '../../../src/chain/db/chain-db.js';
import { indexWrites } from '../../../src/chain/logs/log-index.js';
import { LogQueries } from '../../../src/chain/logs/query.js';
import { RecentLogPostings } from '../../../src/chain/logs/recent-postings.js';
import type { Log, RangeLogQuery, ReceiptLog, TopicCriterion } from '../../../src/chain/logs/types.js';
import { seededRandom } from '../../helpers/seeded-random.js';
import { addr, log, SyntheticChain, topic, type SyntheticBlock } from './synthetic-chain.js';

let dir: string | undefined;
let db: ChainDB | undefined;

afterEach(async () => {
  await db?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  db = undefined;
  dir = undefined;
});

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
/** Every field of every log, in order. */
const full = (logs: readonly Log[]) =>
  logs.map((l) =>
    [
      l.blockNumber,
      hex(l.blockHash),
      l.blockTimestamp,
      hex(l.transactionHash),
      l.transactionIndex,
      l.logIndex,
      l.removed,
      hex(l.address),
      l.topics.map(hex).join(','),
      hex(l.data),
    ].join('/'),
  );

type Outcome = { logs: string[] } | { error: string };
async function outcomeOf(run: () => Log[] | Promise<Log[]>): Promise<Outcome> {
  try {
    return { logs: full(await run()) };
  } catch (err) {
    return { error: `${(err as Error).name}: ${(err as Error).message} ${JSON.stringify(err, (_, v) => String(v))}` };
  }
}

/** A chain on a fresh database whose blocks each hold one log of address 1, its postings followed from block 2 on. */
async function followedChain(blocks: number) {
  dir = mkdtempSync(join(tmpdir(), 'query-now-'));
  db = await ChainDB.open(dir, { writeBehind: false });
  const store = db;
  const chain = new SyntheticChain((block) => {
    const batch = new WriteBatch();
    batch.ops.push(...indexWrites(block, block.receipts));
    return store.write(batch);
  });
  await chain.extend([[log(1, [1])]]);
  const reader = { keys: store.keys.bind(store), observeTable: store.observeTable.bind(store) };
  const followed = RecentLogPostings.follow(reader);
  await followed.ready;
  for (let i = 0; i < blocks; i++) await chain.extend([[log(1, [1])]]);
  return { chain, reader, postings: followed.postings };
}

describe('queryLogsNow', () => {
  it.each([1, 2, 3, 4, 5, 6])('answers as queryLogs does, or not at all (seed %i)', async (seed) => {
    const random = seededRandom(seed);
    const pick = (n: number) => Math.floor(random() * n);
    dir = mkdtempSync(join(tmpdir(), 'query-now-'));
    db = await ChainDB.open(dir, { writeBehind: seed % 2 === 0 });
    const store = db;
    const chain = new SyntheticChain((block) => {
      const batch = new WriteBatch();
      batch.ops.push(...indexWrites(block, block.receipts));
      return store.write(batch);
    });
    const reader = { keys: store.keys.bind(store), observeTable: store.observeTable.bind(store) };
    // A few blocks before the postings follow (they start above them); a small bound on some seeds, so the floor rises.
    const randomLogs = (): ReceiptLog[][] =>
      Array.from({ length: pick(4) }, () =>
        Array.from({ length: pick(3) }, () =>
          log(
            pick(4),
            Array.from({ length: pick(4) }, () => pick(5)),
          ),
        ),
      );
    for (let i = 0; i < 3; i++) await chain.extend(randomLogs(), `i${i}`);
    const followed = RecentLogPostings.follow(reader, seed % 3 === 0 ? 60 : undefined);
    await followed.ready;
    const limits = { maxResults: 2 + pick(10), maxBlockRange: 5 + pick(12), cachedLogs: 8 + pick(60) };
    const queries = new LogQueries({ source: chain, index: reader, recent: followed.postings, ...limits });
    const levelOnly = new LogQueries({ source: chain, index: reader, ...limits });
    const bloom = new LogQueries({ source: chain, ...limits });

    const randomValues = (make: (n: number) => Uint8Array, n: number) =>
      Array.from({ length: pick(3) }, () => make(pick(n)));
    const randomQuery = (head: number): RangeLogQuery => {
      const from = pick(head + 3);
      const to = from + pick(30) - 3;
      const topics: TopicCriterion[] = Array.from({ length: pick(4) }, () => {
        const r = random();
        return r < 0.3 ? null : r < 0.7 ? topic(pick(6)) : randomValues(topic, 6);
      });
      return {
        fromBlock: BigInt(from),
        toBlock: BigInt(to),
        ...(random() < 0.7 ? { addresses: randomValues(addr, 5) } : {}),
        ...(random() < 0.8 ? { topics } : {}),
      };
    };

    let answered = 0;
    let refused = 0;
    let declined = 0;
    const sides: SyntheticBlock[] = [];
    for (let step = 0; step < 60; step++) {
      const r = random();
      const head = Number(chain.headNumber());
      // Salts keep hashes apart: a block's hash is its parent, height, salt and transaction count.
      if (r < 0.6) await chain.extend(randomLogs(), `e${step}`);
      else if (r < 0.8) {
        // A side chain off a recent block, one or more blocks long (may become canonical later).
        let side = await chain.build(randomLogs(), chain.blockAt(BigInt(Math.max(0, head - pick(4))))!, `s${step}`);
        for (let i = pick(3); i > 0; i--) side = await chain.build(randomLogs(), side, `s${step}.${i}`);
        sides.push(side);
      } else if (sides.length > 0) chain.reorgTo(sides[pick(sides.length)]!);
      chain.uncachedHeights.clear();
      for (let i = pick(3); i > 0; i--) chain.uncachedHeights.add(BigInt(pick(head + 2)));
      for (let q = 0; q < 8; q++) {
        const query = randomQuery(Number(chain.headNumber()));
        // Often asked before, so the block log cache holds what the answer needs.
        if (random() < 0.6) await outcomeOf(() => queries.queryLogs(query));
        let now: Log[] | undefined;
        const syncOutcome = await outcomeOf(() => {
          now = queries.queryLogsNow(query);
          return now ?? [];
        });
        if (now === undefined && !('error' in syncOutcome)) {
          declined++;
          continue;
        }
        const label = JSON.stringify({ seed, step, query }, (_, v) => (v instanceof Uint8Array ? hex(v) : String(v)));
        const expected = await outcomeOf(() => levelOnly.queryLogs(query));
        expect(syncOutcome, label).toEqual(expected);
        expect(await outcomeOf(() => bloom.queryLogs(query)), label).toEqual(expected);
        expect(await outcomeOf(() => queries.queryLogs(query)), label).toEqual(expected);
        if ('error' in expected) refused++;
        else answered++;
      }
    }
    // The path was taken, with logs and with errors, and also declined (each seed's chain is different).
    expect(answered).toBeGreaterThan(40);
    expect(refused).toBeGreaterThan(0);
    expect(declined).toBeGreaterThan(0);
  });

  it('declines what is not in memory: a range below the floor, an uncached canonical hash, a block not cached', async () => {
    const { chain, reader, postings } = await followedChain(4);
    const queries = new LogQueries({ source: chain, index: reader, recent: postings });
    const query = { fromBlock: 2n, toBlock: 5n, addresses: [addr(1)] };
    expect(queries.queryLogsNow(query)).toBeUndefined(); // no block's logs cached yet
    expect(await queries.queryLogs(query)).toHaveLength(4);
    expect(queries.queryLogsNow(query)?.map((l) => l.blockNumber)).toEqual([2n, 3n, 4n, 5n]);
    chain.uncachedHeights.add(4n);
    expect(queries.queryLogsNow(query)).toBeUndefined();
    chain.uncachedHeights.clear();
    expect(queries.queryLogsNow({ ...query, fromBlock: 1n })).toBeUndefined(); // block 1 is below the floor
    expect(queries.queryLogsNow({ ...query, fromBlock: 6n, toBlock: 9n })).toEqual([]);
    expect(queries.queryLogsNow({ blockHash: chain.blockAt(2n)!.hash() })).toBeUndefined();
    expect(new LogQueries({ source: chain, index: reader }).queryLogsNow(query)).toBeUndefined(); // no postings
  });
  it('leaves a query over more than 256 candidate blocks to the async path, which yields between blocks', async () => {
    const { chain, reader, postings } = await followedChain(300);
    const queries = new LogQueries({ source: chain, index: reader, recent: postings, cachedLogs: 1000 });
    const wide = { fromBlock: 2n, toBlock: 258n, addresses: [addr(1)] };
    expect(await queries.queryLogs(wide)).toHaveLength(257); // now every block's logs are cached
    expect(queries.queryLogsNow(wide)).toBeUndefined();
    expect(queries.queryLogsNow({ ...wide, toBlock: 257n })).toHaveLength(256);
  });
});

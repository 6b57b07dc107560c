/**
 * Filters and log queries against the real chain engine: a contract emits events, a heavier side
 * chain is imported, and a log filter reports the dropped events with `removed: true`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Block } from '@ethereumjs/block';
import { Level } from 'level';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { attachFilters, type ChainFilters } from '../../../src/chain/filters/chain-wiring.js';
import { chainLogSource } from '../../../src/chain/filters/chain-source.js';
import { indexWrites } from '../../../src/chain/logs/log-index.js';
import { LogQueries } from '../../../src/chain/logs/query.js';
import { RecentLogPostings } from '../../../src/chain/logs/recent-postings.js';
import type { Log } from '../../../src/chain/logs/types.js';
import { mine, openDevChain, signedTx, tempDir } from '../engine/fixtures.js';

// Runtime: LOG1(offset 0, size 0, topic = calldata[0..32]); STOP. Init code copies it out and returns it.
const runtime = '600035600060 00a100'.replace(/ /g, '');
const initCode = Buffer.from(`6009600c60003960096000f3${runtime}`, 'hex');
const word = (n: number) => new Uint8Array(32).fill(0).map((_, i) => (i === 31 ? n : 0));

let dir: ReturnType<typeof tempDir>;
let chain: Blockchain;
let filters: ChainFilters;
let queries: LogQueries;
let emitter: Uint8Array;
let nonce = 0n;
const stored: Block[] = [];

const emit = (topicByte: number, n = nonce++) =>
  signedTx(chain, { from: 0, nonce: n, to: emitter, data: word(topicByte), gasLimit: 50_000n });
const topicsOf = (logs: Log[]) => logs.map((l) => `${l.blockNumber}:${l.topics[0][31]}${l.removed ? ':removed' : ''}`);

beforeAll(async () => {
  dir = tempDir('filters-engine-');
  chain = await openDevChain(dir.dir);
  queries = new LogQueries({ source: chainLogSource(chain) });
  filters = attachFilters(chain, queries);
  const { block } = await mine(chain, [
    signedTx(chain, { from: 0, nonce: nonce++, data: initCode, gasLimit: 100_000n }),
  ]);
  const [receipt] = (await chain.getReceipts(block.hash()))!;
  emitter = receipt.contractAddress!;
});

afterAll(async () => {
  filters?.detach();
  await chain?.close();
  dir?.remove();
});

describe('log filters on the engine', () => {
  it('report engine logs with block-wide indexes, and dropped ones with removed: true after a reorg', async () => {
    const { manager } = filters;
    const id = await manager.newLogFilter({ addresses: [emitter] });
    const blocks = await manager.newBlockFilter();
    const forkPoint = chain.getHead();
    const { block: two } = await mine(chain, [emit(1), emit(2)]);
    const { block: three } = await mine(chain, [emit(3)]);
    stored.push(two, three);
    const first = await manager.changes(id);
    expect(first.kind === 'logs' && topicsOf(first.logs)).toEqual(['2:1', '2:2', '3:3']);
    expect(first.kind === 'logs' && first.logs.map((l) => [l.transactionIndex, l.logIndex])).toEqual([
      [0, 0],
      [1, 1],
      [0, 0],
    ]);
    expect(first.kind === 'logs' && first.logs[1].transactionHash).toEqual(two.transactions[1].hash());

    // A side chain from block 1, one block longer: blocks 2 and 3 leave the canonical chain.
    nonce = 1n;
    let parentHash = forkPoint.hash();
    for (const topicByte of [7, 8, 9]) {
      const { block, result } = await mine(chain, [emit(topicByte)], {
        parentHash,
        timestamp: (await chain.getHeader(parentHash))!.timestamp + 13n,
      });
      parentHash = block.hash();
      stored.push(block);
      if (topicByte < 9) expect(result.status).toBe('side');
      else expect(result.status).toBe('head');
    }
    const second = await manager.changes(id);
    expect(second.kind === 'logs' && topicsOf(second.logs)).toEqual([
      '2:1:removed',
      '2:2:removed',
      '3:3:removed',
      '2:7',
      '3:8',
      '4:9',
    ]);
    const hashes = await manager.changes(blocks);
    expect(hashes.kind === 'blocks' && hashes.hashes.length).toBe(2 + 3);

    // eth_getLogs over the engine (bloom scan, no index wired) sees only the canonical logs.
    const all = await queries.queryLogs({ fromBlock: 0n, toBlock: 100n, addresses: [emitter] });
    expect(topicsOf(all)).toEqual(['2:7', '3:8', '4:9']);
    const byHash = await queries.queryLogs({ blockHash: two.hash() });
    expect(topicsOf(byHash)).toEqual(['2:1', '2:2']);
  });

  it('index engine blocks of both branches and answer from the index like the bloom scan', async () => {
    const dirPath = mkdtempSync(join(tmpdir(), 'engine-logindex-'));
    const db = new Level<Uint8Array, Uint8Array>(dirPath, { keyEncoding: 'view', valueEncoding: 'view' });
    try {
      for (const block of stored) await db.batch(indexWrites(block, (await chain.getReceipts(block.hash()))!));
      const indexed = new LogQueries({ source: chainLogSource(chain), index: db });
      for (const query of [
        { fromBlock: 0n, toBlock: 10n, addresses: [emitter] },
        { fromBlock: 2n, toBlock: 3n, topics: [[word(1), word(8)]] },
        { fromBlock: 0n, toBlock: 10n, topics: [word(3)] },
      ]) {
        expect(topicsOf(await indexed.queryLogs(query))).toEqual(topicsOf(await queries.queryLogs(query)));
      }
      expect(topicsOf(await indexed.queryLogs({ fromBlock: 0n, toBlock: 10n, addresses: [emitter] }))).toEqual([
        '2:7',
        '3:8',
        '4:9',
      ]);
    } finally {
      await db.close();
      rmSync(dirPath, { recursive: true, force: true });
    }
  });

  it('answer from the postings the chain writes, held in memory, as from LevelDB and the bloom scan, across a reopen', async () => {
    const agree = async (recent: RecentLogPostings) => {
      const withRecent = new LogQueries({ source: chainLogSource(chain), index: chain.logIndex, recent });
      const levelOnly = new LogQueries({ source: chainLogSource(chain), index: chain.logIndex });
      const bloom = new LogQueries({ source: chainLogSource(chain) });
      for (const query of [
        { fromBlock: 0n, toBlock: 20n, addresses: [emitter] },
        { fromBlock: 3n, toBlock: 6n, topics: [[word(8), word(5), word(6)]] },
        { fromBlock: 5n, toBlock: 20n },
      ]) {
        const expected = topicsOf(await bloom.queryLogs(query));
        expect(topicsOf(await withRecent.queryLogs(query))).toEqual(expected);
        expect(topicsOf(await levelOnly.queryLogs(query))).toEqual(expected);
      }
      return topicsOf(await withRecent.queryLogs({ fromBlock: 0n, toBlock: 20n, addresses: [emitter] }));
    };
    // Followed from now on: blocks 2-4 of both branches are below the floor (LevelDB), the next ones above it.
    let followed = RecentLogPostings.follow(chain.logIndex);
    await followed.ready;
    expect(followed.postings.floor).toBe(5n);
    const four = chain.getHead();
    await mine(chain, [emit(5)]);
    // A heavier branch from block 4 replaces block 5.
    nonce -= 1n;
    let parentHash = four.hash();
    for (const topicByte of [6, 6]) {
      const { block } = await mine(chain, [emit(topicByte)], {
        parentHash,
        timestamp: (await chain.getHeader(parentHash))!.timestamp + 7n,
      });
      parentHash = block.hash();
    }
    expect(followed.postings.size).toBe(3 * 3); // any-log, address, topic for blocks 5, 5' and 6'
    expect(await agree(followed.postings)).toEqual(['2:7', '3:8', '4:9', '5:6', '6:6']);
    followed.postings.detach();

    // Reopened: everything so far is below the new floor, the next block above it.
    await chain.close();
    chain = await openDevChain(dir.dir);
    followed = RecentLogPostings.follow(chain.logIndex);
    await followed.ready;
    expect(followed.postings.floor).toBe(7n);
    await mine(chain, [emit(5)]);
    expect(await agree(followed.postings)).toEqual(['2:7', '3:8', '4:9', '5:6', '6:6', '7:5']);
    followed.postings.detach();
  });
});

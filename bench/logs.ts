/**
 * Log query micro-bench: `queryLogs` over 1k and 10k blocks with one matching log per 100 blocks.
 *   npx tsx bench/logs.ts [blocks=10000]
 *
 * 10,000 synthetic blocks (4 signed transactions, 4 logs each) are written with the engine's own
 * block store into a real LevelDB in a temp dir, with their log index entries (`indexWrites`). The
 * index lives in a second LevelDB beside the chain database because ChainDB does not expose ordered
 * key reads yet; the reads are the same. Queries go through the engine's BlockStore, as on a node:
 * "cold" is the first query on a fresh store (no decoded-object cache), "warm" the median of repeats.
 * For comparison the bloom-only path (no index: every header's bloom, then receipts) is timed too.
 * Target: the 10k-block indexed query under 50 ms.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createBlock, type Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { Address } from '@ethereumjs/util';
import { Level } from 'level';
import { BlockCodec } from '../src/chain/codec/block-codec.js';
import { BlockStore } from '../src/chain/db/block-store.js';
import { ChainDB, WriteBatch, type WriteOp } from '../src/chain/db/chain-db.js';
import { etcEngineRules } from '../src/chain/engine/engine-adapters.js';
import { combineBlooms, logsBloomOf, type ReceiptLog, type TxReceipt } from '../src/chain/codec/receipts.js';
import { sharedCommon } from '../src/chain/exec/shared-common.js';
import { FilterManager, type HeadBlock } from '../src/chain/filters/filter-manager.js';
import { indexWrites } from '../src/chain/logs/log-index.js';
import { LogQueries } from '../src/chain/logs/query.js';
import type { LogSource, RangeLogQuery } from '../src/chain/logs/types.js';
import { dev } from '../src/chain/networks/index.js';
import { keys as devKeys, tempDir } from '../test/chain/engine/fixtures.js';

const totalBlocks = Number(process.argv[2] ?? 10_000);
const TX_PER_BLOCK = 4;
const MATCH_EVERY = 100;

const word = (n: number, tag = 0) => {
  const out = new Uint8Array(32);
  new DataView(out.buffer).setUint32(28, n);
  out[0] = tag;
  return out;
};
const TRANSFER = word(0xddf252ad, 0xdd);
const TARGET = new Uint8Array(20).fill(0x7a);
const noiseAddress = (i: number) => word(i, 0xee).subarray(12);

// ---------------------------------------------------------------- chain construction

const rules = etcEngineRules(dev);
const commons = new Map<string, Common>();
const shared = (c: Common) => {
  const key = `${c.hardfork()}|${c.eips().join(',')}`;
  if (!commons.has(key)) commons.set(key, sharedCommon(c));
  return commons.get(key)!;
};
const commonAt = (n: bigint) => shared(rules.commonAt(n));
const txCommonAt = (n: bigint) => shared(rules.txCommonAt?.(n) ?? rules.commonAt(n));

const dir = tempDir('bench-logs-');
const chainDb = await ChainDB.open(join(dir.dir, 'chaindata'));
mkdirSync(join(dir.dir, 'logindex'));
const indexDb = new Level<Uint8Array, Uint8Array>(join(dir.dir, 'logindex'), {
  keyEncoding: 'view',
  valueEncoding: 'view',
});
await indexDb.open();
const codec = new BlockCodec(commonAt, txCommonAt);
const newStore = () => new BlockStore(chainDb, codec, commonAt);

// A pool of distinct signed transactions reused across blocks (signing 40k would dominate set-up).
const txPool: TypedTransaction[] = Array.from({ length: 400 }, (_, i) =>
  createLegacyTx(
    { nonce: BigInt(i), to: new Address(noiseAddress(i)), gasLimit: 60_000n, gasPrice: 1_000_000_000n, data: word(i) },
    { common: txCommonAt(1n) },
  ).sign(devKeys[i % devKeys.length]),
);

function blockLogs(n: number): ReceiptLog[][] {
  return Array.from({ length: TX_PER_BLOCK }, (_, t) => {
    const matching = n % MATCH_EVERY === MATCH_EVERY / 2 && t === 2;
    const address = matching ? TARGET : noiseAddress((n * TX_PER_BLOCK + t) % 50);
    return [{ address, topics: [TRANSFER, word(n), word(t)], data: word(n * TX_PER_BLOCK + t) }];
  });
}

const setupStart = performance.now();
let parent: Block = createBlock(
  { header: { number: 0n, gasLimit: 8_000_000n, difficulty: 131_072n, timestamp: 0n } },
  { common: commonAt(0n) },
);
let batch = new WriteBatch();
const store = newStore();
store.stageBlock(batch, parent, [], parent.header.difficulty);
store.stageCanonical(batch, parent);
let indexOps: WriteOp[] = [];
const headHeaders: HeadBlock[] = [];
for (let n = 1; n <= totalBlocks; n++) {
  const number = BigInt(n);
  const txs = Array.from({ length: TX_PER_BLOCK }, (_, t) => txPool[(n * TX_PER_BLOCK + t) % txPool.length]);
  const receipts: TxReceipt[] = blockLogs(n).map((logs, t) => ({
    type: 0,
    status: 1,
    cumulativeGasUsed: BigInt((t + 1) * 30_000),
    gasUsed: 30_000n,
    logs,
    logsBloom: logsBloomOf(logs),
    from: new Uint8Array(20),
  }));
  const block = createBlock(
    {
      header: {
        number,
        parentHash: parent.hash(),
        gasLimit: 8_000_000n,
        gasUsed: BigInt(TX_PER_BLOCK * 30_000),
        difficulty: 131_072n,
        timestamp: number * 13n,
        logsBloom: combineBlooms(receipts.map((r) => r.logsBloom)),
      },
      transactions: txs,
    },
    { common: commonAt(number) },
  );
  store.stageBlock(batch, block, receipts, number * 131_072n);
  store.stageCanonical(batch, block);
  indexOps.push(...indexWrites(block, receipts));
  headHeaders.push(block);
  if (n % 500 === 0 || n === totalBlocks) {
    store.stageHead(batch, block.hash());
    await chainDb.write(batch);
    await indexDb.batch(indexOps);
    batch = new WriteBatch();
    indexOps = [];
  }
  parent = block;
}
console.log(
  `set-up: ${totalBlocks} blocks, ${totalBlocks * TX_PER_BLOCK} logs written in ${((performance.now() - setupStart) / 1000).toFixed(1)} s`,
);

// ---------------------------------------------------------------- queries

const head = BigInt(totalBlocks);
function storeSource(s: BlockStore): LogSource {
  return {
    headNumber: () => head,
    canonicalHash: (n) => s.getCanonicalHash(n),
    async header(hash) {
      const h = await s.getHeader(hash);
      return h && { hash, number: h.number, parentHash: h.parentHash, timestamp: h.timestamp, logsBloom: h.logsBloom };
    },
    async blockReceipts(hash) {
      const [block, receipts] = await Promise.all([s.getBlock(hash), s.getReceipts(hash)]);
      if (block === undefined || receipts === undefined) return undefined;
      const header = {
        hash,
        number: block.header.number,
        parentHash: block.header.parentHash,
        timestamp: block.header.timestamp,
        logsBloom: block.header.logsBloom,
      };
      return { header, transactionHashes: block.transactions.map((tx) => tx.hash()), receipts };
    },
  };
}

async function time(fn: () => Promise<number>): Promise<{ ms: number; results: number }> {
  const t = performance.now();
  const results = await fn();
  return { ms: performance.now() - t, results };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(label: string, withIndex: boolean, query: RangeLogQuery, repeats: number): Promise<number> {
  const make = () =>
    new LogQueries({
      source: storeSource(newStore()),
      ...(withIndex ? { index: indexDb } : {}),
      maxBlockRange: 1_000_000,
    });
  const cold = await time(async () => (await make().queryLogs(query)).length);
  const warmQueries = make();
  const warm: number[] = [];
  let results = 0;
  for (let i = 0; i < repeats; i++) {
    const run = await time(async () => (await warmQueries.queryLogs(query)).length);
    warm.push(run.ms);
    results = run.results;
  }
  const blocks = query.toBlock - query.fromBlock + 1n;
  console.log(
    `${label.padEnd(8)} ${String(blocks).padStart(6)} blocks  ${String(results).padStart(4)} logs   cold ${cold.ms.toFixed(1).padStart(7)} ms   warm median ${median(warm).toFixed(1).padStart(7)} ms`,
  );
  return median(warm);
}

const ranges = [1_000, 10_000].filter((r) => r <= totalBlocks);
const figures: Record<string, number> = {};
console.log(`\nqueryLogs(address = target, topics = [Transfer]); one matching log per ${MATCH_EVERY} blocks`);
for (const range of ranges) {
  const query: RangeLogQuery = {
    fromBlock: head - BigInt(range) + 1n,
    toBlock: head,
    addresses: [TARGET],
    topics: [TRANSFER],
  };
  figures[`index-${range}`] = await measure('index', true, query, 9);
}
for (const range of ranges) {
  const query: RangeLogQuery = {
    fromBlock: head - BigInt(range) + 1n,
    toBlock: head,
    addresses: [TARGET],
    topics: [TRANSFER],
  };
  await measure('bloom', false, query, 3);
}

// ---------------------------------------------------------------- head processing with many filters

const FILTERS = 1_000;
const HEADS = Math.min(1_000, totalBlocks);
async function headProcessingMs(filterCount: number): Promise<number> {
  const source = storeSource(newStore());
  const manager = new FilterManager<HeadBlock>({
    source,
    queries: new LogQueries({ source }),
    blockByHash: async () => undefined,
    initialHead: headHeaders[totalBlocks - HEADS - 1] ?? headHeaders[0],
  });
  // Half watch the rare target, half a busy noise address: both kinds of cost.
  for (let i = 0; i < filterCount; i++) {
    await manager.newLogFilter(
      i % 2 === 0 ? { addresses: [TARGET] } : { addresses: [noiseAddress(i % 50)], topics: [TRANSFER] },
    );
  }
  const t = performance.now();
  for (const h of headHeaders.slice(totalBlocks - HEADS)) manager.onNewHead(h);
  await manager.settled();
  const ms = performance.now() - t;
  manager.close();
  return ms;
}
const bare = await headProcessingMs(0);
const loaded = await headProcessingMs(FILTERS);
// Pessimistic: receipts come from disk here, while the engine's store still caches a just-imported block.
console.log(
  `\nfilter head processing, ${HEADS} blocks: ${(bare / HEADS).toFixed(3)} ms/block with no filters, ` +
    `${(loaded / HEADS).toFixed(3)} ms/block with ${FILTERS} log filters (receipts read from disk)`,
);

await indexDb.close();
await chainDb.close();
dir.remove();

const tenK = figures['index-10000'];
if (tenK !== undefined) {
  console.log(`\ntarget: 10k-block indexed query under 50 ms: ${tenK.toFixed(1)} ms ${tenK < 50 ? 'MET' : 'MISSED'}`);
}

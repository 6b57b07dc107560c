/**
 * Empty blocks built in bulk are stored without body and receipts records (their headers commit to both being
 * empty). Every reader must still answer them exactly as it answers the same blocks made one by one, which keep
 * those records: the block by number and by hash (header fields, body), its receipts ([]), logs by range and by
 * block hash, the eth protocol's GetBlockBodies / GetReceipts serving, across a restart (nothing from the caches),
 * and `export` → `import` into a fresh datadir.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { exportHistory } from '../../../src/chain/archive/history-export.js';
import { importHistory } from '../../../src/chain/archive/history-import.js';
import type { ChainEngine } from '../../../src/chain/engine/engine.js';
import { EthServer } from '../../../src/p2p/eth/serve.js';
import { scopedEngines } from './scoped-engines.js';

const engines = scopedEngines('bulk-empty-reads-');
const coinbase = new Uint8Array(20).fill(0xcb);
const COUNT = 25;
const quiet = { info: () => {} };

function open(dataDir: string): Promise<ChainEngine> {
  return engines.open({ dataDir, network: 'dev', seal: 'instant', mining: { coinbase } });
}

const zeroSeal = { nonce: new Uint8Array(8), mixHash: new Uint8Array(32) };

/** Everything a reader can say about block `n`, as plain comparable values. */
async function readBack(engine: ChainEngine, n: bigint) {
  const chain = engine.chain;
  const byNumber = (await chain.getBlock(n))!;
  const hash = byNumber.hash();
  const byHash = (await chain.getBlock(hash))!;
  const server = new EthServer(chain, engine.pool);
  const [bodies, served] = await Promise.all([server.bodies([hash]), server.receipts([hash])]);
  return {
    hash: bytesToHex(hash),
    header: byNumber.header.toJSON(),
    block: bytesToHex(byNumber.serialize()),
    byHash: bytesToHex(byHash.serialize()),
    transactions: byNumber.transactions.length,
    uncles: byNumber.uncleHeaders.length,
    receipts: await chain.getReceipts(hash),
    logsByHash: await engine.logs.queries.queryLogs({ blockHash: hash }),
    bodies: bodies.map((b) => [b.txs.length, b.uncles.length]),
    servedReceipts: served,
    td: await chain.getTotalDifficulty(hash),
    canonical: await chain.isCanonical(hash),
  };
}

describe('empty blocks stored in bulk read back as the same blocks made one by one', () => {
  it('by every reader, across a restart, and through export → import', async () => {
    const bulkDir = engines.newDir();
    const stepDir = engines.newDir();
    let bulk = await open(bulkDir);
    let step = await open(stepDir);
    const start = bulk.chain.getHead().header.timestamp;
    let next = 0n;
    await bulk.chain.extendHead({
      count: COUNT,
      coinbase,
      timestamp: () => start + 1n + next++,
      chunkSize: 10,
      seal: async (a) => a.seal(zeroSeal.nonce, zeroSeal.mixHash),
    });
    for (let i = 0; i < COUNT; i++) {
      const assembled = await step.chain.assemble({ transactions: [], coinbase, timestamp: start + 1n + BigInt(i) });
      expect((await step.chain.importBlock(assembled.seal(zeroSeal.nonce, zeroSeal.mixHash))).status).toBe('head');
    }
    expect(bulk.chain.getHead().hash()).toEqual(step.chain.getHead().hash());

    // Reopened: every answer comes from the database, not from the blocks the run kept in its caches.
    await engines.close(bulk);
    await engines.close(step);
    bulk = await open(bulkDir);
    step = await open(stepDir);
    // Before any read caches a block: a bulk block's number comes from its header (it has no number record), so it
    // is canonical, and importing the same block made one by one finds it stored.
    for (let n = 1n; n <= BigInt(COUNT); n++) {
      const hash = (await step.chain.getCanonicalHash(n))!;
      expect(await bulk.chain.isCanonical(hash)).toBe(true);
    }
    const again = (await step.chain.getBlock(3n))!;
    expect((await bulk.chain.importBlock(again)).status).toBe('known');
    expect(await bulk.chain.isCanonical(new Uint8Array(32).fill(7))).toBe(false);
    for (let n = 1n; n <= BigInt(COUNT); n++) {
      const [a, b] = [await readBack(bulk, n), await readBack(step, n)];
      expect(a).toEqual(b);
      expect(a.receipts).toEqual([]);
      expect(a.bodies).toEqual([[0, 0]]);
      expect(a.servedReceipts).toEqual([[]]);
    }
    const range = { fromBlock: 1n, toBlock: BigInt(COUNT) };
    expect(await bulk.logs.queries.queryLogs(range)).toEqual(await step.logs.queries.queryLogs(range));

    // export → import: the file is the one the per-block chain exports, and a fresh chain takes every block.
    const [bulkFile, stepFile] = [join(engines.newDir(), 'bulk.rlp'), join(engines.newDir(), 'step.rlp')];
    expect((await exportHistory({ chain: bulk.chain, path: bulkFile, log: quiet })).exported).toBe(COUNT + 1);
    await exportHistory({ chain: step.chain, path: stepFile, log: quiet });
    expect(readFileSync(bulkFile)).toEqual(readFileSync(stepFile));
    const fresh = await open(engines.newDir());
    const outcome = await importHistory({ chain: fresh.chain, files: [bulkFile], log: quiet });
    expect(outcome.imported).toBe(COUNT);
    expect(fresh.chain.getHead().hash()).toEqual(bulk.chain.getHead().hash());
    expect(await fresh.chain.getReceipts(fresh.chain.getHead().hash())).toEqual([]);
  });
});

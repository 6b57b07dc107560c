/**
 * Every in-memory cache of the engine honours its configured bound (src/chain/cache-limits.ts): the LRU itself, the
 * trie node store's three caches, the block store's four, the state views and call executors; and the settings
 * (`cache.*`, `db.*`) reach the engine with the documented defaults.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ChainEngine } from '../../src/chain/engine/engine.js';
import { DEFAULT_CACHE_LIMITS, type CacheLimits } from '../../src/chain/base/cache-limits.js';
import { ChainDB } from '../../src/chain/db/chain-db.js';
import { Lru } from '../../src/chain/db/lru.js';
import type { BlockStore } from '../../src/chain/db/block-store.js';
import { TrieNodeStore } from '../../src/chain/state/trie-db.js';
import { loadConfig } from '../../src/node/config.js';
import { tempDir } from './engine/fixtures.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function dir(): string {
  const d = tempDir('cache-limits-');
  cleanups.push(d.remove);
  return d.dir;
}

describe('cache bounds', () => {
  it('an Lru never holds more than its capacity, and keeps the most recent half', () => {
    const lru = new Lru<number, number>(100);
    for (let i = 0; i < 10_000; i++) {
      lru.set(i, i);
      if (i % 97 === 0) expect(lru.size).toBeLessThanOrEqual(100);
    }
    expect(lru.size).toBeLessThanOrEqual(100);
    for (let i = 10_000 - 50; i < 10_000; i++) expect(lru.get(i)).toBe(i);
  });

  it('the trie node store bounds its raw nodes, lookup answers and decoded nodes', async () => {
    const db = await ChainDB.open(dir());
    cleanups.push(() => db.close());
    const store = new TrieNodeStore(db, 64, 32, 16);
    const nodes = new Map<string, Uint8Array>();
    for (let i = 0; i < 1_000; i++) nodes.set(i.toString(16).padStart(64, '0'), Uint8Array.of(i & 0xff));
    store.remember(nodes);
    expect(store.recent.size).toBeLessThanOrEqual(64);
    const { lookups, nodes: decoded } = store.trieCaches;
    for (let i = 0; i < 1_000; i++) {
      lookups!.set(`k${i}`, null);
      decoded!.set(`n${i}`, [] as never);
    }
    expect(lookups!.size).toBeLessThanOrEqual(32);
    expect(decoded!.size).toBeLessThanOrEqual(16);
  });

  it('a chain honours the configured bounds of its block store, state views and call executors', async () => {
    const caches: Partial<CacheLimits> = {
      blocks: 8,
      headers: 16,
      receipts: 4,
      canonicalHashes: 32,
      stateViews: 3,
      callExecutors: 2,
      trieNodes: 50,
      trieLookups: 40,
      trieDecodedNodes: 20,
    };
    const engine = await ChainEngine.open({ dataDir: dir(), network: 'dev', seal: 'instant', caches });
    cleanups.push(() => engine.close());
    await engine.miner.mineBlocks(200, { withTransactions: false });
    const chain = engine.chain;
    for (let n = 0n; n <= 200n; n++) {
      const block = (await chain.getBlock(n))!;
      await chain.getHeader(block.header.parentHash);
      await chain.getReceipts(block.hash());
      await chain.stateAt(n);
      if (n % 10n === 0n) await chain.call(n, { to: new Uint8Array(20), data: new Uint8Array(0) });
    }
    const store = Reflect.get(chain, 'store') as BlockStore;
    expect(store.blocks.size).toBeLessThanOrEqual(8);
    expect(store.headers.size).toBeLessThanOrEqual(16);
    expect(store.receipts.size).toBeLessThanOrEqual(4);
    expect(store.canonical.size).toBeLessThanOrEqual(32);
    const view = Reflect.get(chain, 'view') as object;
    expect((Reflect.get(view, 'stateViews') as Lru<string, unknown>).size).toBeLessThanOrEqual(3);
    expect((Reflect.get(view, 'callExecutors') as Lru<string, unknown>).size).toBeLessThanOrEqual(2);
    const nodes = Reflect.get(chain, 'nodes') as TrieNodeStore;
    expect(nodes.recent.size).toBeLessThanOrEqual(50);
    expect(nodes.trieCaches.lookups!.size).toBeLessThanOrEqual(40);
    expect(nodes.trieCaches.nodes!.size).toBeLessThanOrEqual(20);
    // Small caches change nothing of what is read.
    expect(await (await chain.stateAt(1n))!.getBalance(engine.miner.coinbase)).toBeGreaterThan(0n);
  });

  it('the settings reach the configuration, with the documented defaults', () => {
    expect(loadConfig({ flags: { network: 'dev' } }).caches).toEqual(DEFAULT_CACHE_LIMITS);
    const config = loadConfig({
      env: { SVC_NODE_CACHE_TRIE_NODES: '5000', SVC_NODE_DB_CACHE_SIZE: '1048576', SVC_NODE_CACHE_BLOCKS: '1' },
    });
    expect(config.caches.trieNodes).toBe(5000);
    expect(config.caches.dbCacheBytes).toBe(1_048_576);
    expect(config.caches.blocks).toBe(1);
    // A cache of none is refused with the range, not quietly made one entry.
    expect(() => loadConfig({ env: { SVC_NODE_CACHE_BLOCKS: '0' } })).toThrow(
      'cache.blocks (environment SVC_NODE_CACHE_BLOCKS) must be an integer of at least 1; got "0"',
    );
  });
});

/** Bounds of the engine's in-memory caches and of LevelDB's cache and write buffer (src/chain/cache-limits.ts). */
import { DEFAULT_CACHE_LIMITS as d } from '../../chain/index.js';
import * as s from './setting.js';

export const cacheSettings = {
  'cache.trie-nodes': s.count({
    default: d.trieNodes,
    description: 'raw state-trie nodes kept in memory in front of the database (~350 bytes each)',
  }),
  'cache.trie-decoded-nodes': s.count({
    default: d.trieDecodedNodes,
    description: 'decoded state-trie nodes kept in memory (~1.8 KiB each)',
  }),
  'cache.trie-lookups': s.count({
    default: d.trieLookups,
    description: 'remembered answers of state-trie lookups by (state root, key) (~300 bytes each)',
  }),
  'cache.blocks': s.count({ default: d.blocks, description: 'decoded blocks kept in memory' }),
  'cache.headers': s.count({
    default: d.headers,
    description: 'decoded block headers kept in memory (besides those of cached blocks)',
  }),
  'cache.receipts': s.count({ default: d.receipts, description: 'blocks whose decoded receipts are kept in memory' }),
  'cache.canonical-hashes': s.count({
    default: d.canonicalHashes,
    description: 'canonical block hashes by height kept in memory',
  }),
  'cache.state-views': s.count({
    default: d.stateViews,
    description: 'recent blocks whose state read views (eth_getBalance, eth_getCode, …) are kept',
  }),
  'cache.call-executors': s.count({
    default: d.callExecutors,
    description: 'recent blocks whose eth_call / eth_estimateGas executors (a VM each) are kept',
  }),
  'db.cache-size': s.int({ default: d.dbCacheBytes, description: "LevelDB's block cache in bytes" }),
  'db.write-buffer-size': s.count({
    default: d.dbWriteBufferBytes,
    description: "LevelDB's write buffer (memtable) in bytes",
  }),
  'db.write-behind': s.bool({
    default: ({ network }) => network === 'dev',
    help: 'dev: true; mordor/etc: false',
    description:
      'answer once a block is the in-memory head, its LevelDB write queued in order (a crash loses at most the unwritten tail, the stored head stays consistent); false: once it is on disk',
  }),
};

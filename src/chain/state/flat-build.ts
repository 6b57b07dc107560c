/**
 * The flat state's background build (flat-table.ts): when the table is missing or cannot be brought to the head by
 * a diff, an old table is cleared, then the head's trie is walked in key order in short slices (setImmediate
 * between them, so imports and RPC go on), each slice's accounts and their slots written with the cursor in the meta
 * record: a killed node resumes where the last written slice ended. Head moves during the build take turns with the
 * slices and change only the keys below the cursor (the walk reads the new head's trie from the cursor on).
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { ProgressLog } from '../base/progress-log.js';
import { WriteBatch } from '../db/chain-db.js';
import { keys, Tag } from '../db/keys.js';
import { encodeFlatMeta, type FlatTable, storageRootOf, walkRoot } from './flat-table.js';
import { MissingTrieNodeError, TrieWalker } from './trie-walk.js';

const CLEAR_CHUNK = 10_000;

/** Lets `table` build itself in the background when it needs to (its `resumeBuild`). */
export function enableFlatBuild(table: FlatTable): void {
  table.startBuild = () => runBuild(table);
}

async function runBuild(table: FlatTable): Promise<void> {
  const log = table.options.log;
  try {
    if (table.mode === 'clearing') {
      await clearTable(table);
      if (table.closed) return;
      await table.exclusive(async () => {
        const batch = new WriteBatch();
        const cursor = new Uint8Array(32);
        batch.put(keys.meta('flatState'), encodeFlatMeta({ root: table.headRoot, cursor }));
        await table.db.write(batch);
        table.root = table.headRoot;
        table.cursor = cursor;
        table.mode = 'building';
      });
    }
    log?.info('flat state build started', { from: Buffer.from(table.cursor!).toString('hex').slice(0, 8) });
    const progress = log && new ProgressLog({ log, message: 'flat state build', total: 0, unit: 'accounts' }).start();
    let accounts = 0;
    const started = performance.now();
    try {
      while (!table.closed && table.mode === 'building') {
        await yieldToLoop();
        accounts += await table.exclusive(() => buildSlice(table));
        progress?.update(accounts, estimateTotal(accounts, table.cursor));
      }
    } finally {
      progress?.stop();
    }
    if (table.mode === 'ready')
      log?.info('flat state built', { accounts, seconds: Math.round((performance.now() - started) / 100) / 10 });
  } catch (err) {
    // The head's state cannot be walked (not all held): the table stays unbuilt and readers use the trie.
    if (!(err instanceof MissingTrieNodeError)) throw err;
    log?.info('flat state build stopped', { reason: err.message });
  }
}

/** Accounts in the whole table at the pace so far: hashed keys spread evenly, so the cursor tells the share done. */
function estimateTotal(done: number, cursor: Uint8Array | undefined): number {
  if (cursor === undefined) return done;
  const share = new DataView(cursor.buffer, cursor.byteOffset, 4).getUint32(0) / 2 ** 32;
  return share > 0 ? Math.round(done / share) : done;
}

/** Removes every 'a' and 'o' key (no meta record is stored meanwhile, so head moves leave the table alone). */
async function clearTable(table: FlatTable): Promise<void> {
  for (const tag of [Tag.flatAccount, Tag.flatStorage]) {
    while (!table.closed) {
      const iterator = table.db.keys({ gte: Uint8Array.of(tag), lt: Uint8Array.of(tag + 1) });
      let found: Uint8Array[];
      try {
        found = await iterator.nextv(CLEAR_CHUNK);
      } finally {
        await iterator.close();
      }
      if (found.length === 0) break;
      const batch = new WriteBatch();
      for (const key of found) batch.del(Uint8Array.from(key));
      await table.db.write(batch);
      await table.db.flushed();
    }
  }
}

/** One slice: accounts from the cursor (each with all its slots) for about `sliceMs`, written with the new cursor. */
async function buildSlice(table: FlatTable): Promise<number> {
  if (table.mode !== 'building' || table.cursor === undefined) return 0;
  const deadline = performance.now() + table.sliceMs;
  const walker = new TrieWalker(table.readNode);
  const batch = new WriteBatch();
  let next: Uint8Array | undefined;
  let count = 0;
  const finished = walker.leavesFrom(walkRoot(table.root), table.cursor, (account, value) => {
    if (count > 0 && performance.now() > deadline) {
      next = account;
      return false;
    }
    batch.put(keys.flatAccount(account), value);
    const storage = storageRootOf(value);
    if (storage.length > 0) walker.leaves(storage, (slot, v) => batch.put(keys.flatStorage(account, slot), v));
    count++;
    return true;
  });
  const cursor = finished ? undefined : next;
  batch.put(keys.meta('flatState'), encodeFlatMeta({ root: table.root, cursor }));
  await table.db.write(batch);
  table.cursor = cursor;
  if (finished) table.mode = 'ready';
  return count;
}

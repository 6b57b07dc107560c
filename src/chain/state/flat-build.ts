/**
 * The flat state's background build (flat-table.ts): when the table is missing or cannot be brought to the head by
 * a diff, an old table is cleared, then the head's trie is walked in key order in short slices (setImmediate
 * between them, so imports and RPC go on), each slice's accounts and their slots written with the cursor in the meta
 * record: a killed node resumes where the last written slice ended. Head moves during the build take turns with the
 * slices and change only the keys below the cursor (the walk reads the new head's trie from the cursor on).
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { equalsBytes } from '@ethereumjs/util';
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
    table.stalled = true;
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

/**
 * One slice: accounts from the cursor, each with its slots, for about `sliceMs`, written with the new cursor. A
 * slice may end inside an account's storage (a large contract): the cursor is then that account's key and the next
 * slot's, and the next slice goes on from there.
 */
async function buildSlice(table: FlatTable): Promise<number> {
  const cursor = table.cursor;
  if (table.mode !== 'building' || cursor === undefined) return 0;
  const deadline = performance.now() + table.sliceMs;
  const walker = new TrieWalker(table.readNode);
  const batch = new WriteBatch();
  let next: Uint8Array | undefined;
  let accounts = 0;
  let written = 0;
  const expired = () => written > 0 && performance.now() > deadline;
  /** Writes `account` and its slots from `slotFrom`; false when the slice ended inside its storage (`next` set). */
  const writeAccount = (account: Uint8Array, value: Uint8Array, slotFrom: Uint8Array): boolean => {
    batch.put(keys.flatAccount(account), value);
    accounts++;
    written++;
    const storage = storageRootOf(value);
    if (storage.length === 0) return true;
    return walker.leavesFrom(storage, slotFrom, (slot, v) => {
      if (expired()) {
        next = concat(account, slot);
        return false;
      }
      batch.put(keys.flatStorage(account, slot), v);
      written++;
      return true;
    });
  };
  const root = walkRoot(table.root);
  let from: Uint8Array | undefined = cursor.subarray(0, 32);
  let finished = false;
  if (cursor.length === 64) {
    // Inside an account's storage: that account (if the head still has it) from the cursor's slot, then the rest.
    const account = from;
    let value: Uint8Array | undefined;
    walker.leavesFrom(root, account, (key, v) => {
      if (equalsBytes(key, account)) value = v;
      return false;
    });
    const done = value === undefined || writeAccount(account, value, cursor.subarray(32));
    from = done ? increment(account) : undefined;
    finished = done && from === undefined;
  }
  if (from !== undefined)
    finished = walker.leavesFrom(root, from, (account, value) => {
      if (expired()) {
        next = account;
        return false;
      }
      return writeAccount(account, value, ZERO_KEY);
    });
  const moved = finished ? undefined : next;
  batch.put(keys.meta('flatState'), encodeFlatMeta({ root: table.root, cursor: moved }));
  await table.db.write(batch);
  table.cursor = moved;
  if (finished) table.mode = 'ready';
  return accounts;
}

const ZERO_KEY = new Uint8Array(32);

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** The key after `key` (undefined after the last one). */
function increment(key: Uint8Array): Uint8Array | undefined {
  const out = Uint8Array.from(key);
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] < 0xff) {
      out[i]++;
      return out;
    }
    out[i] = 0;
  }
  return undefined;
}

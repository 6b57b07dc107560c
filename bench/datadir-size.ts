/**
 * Where a datadir's bytes go: its files on disk, and per key tag (keys.ts: H B R N T C X S M …) the entries and the
 * key + value bytes of a full LevelDB scan. The database is compacted over its whole range first, so what deletes
 * and overwrites left behind (tombstones, stale versions) is not counted on disk. Run on a closed datadir.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ClassicLevel } from 'classic-level';
import { chainDbTableStats } from '../src/chain/db/table-stats.js';

export interface TagSize {
  entries: number;
  keyBytes: number;
  valueBytes: number;
}

export interface DatadirSize {
  /** Bytes of every file under the datadir (chaindata and anything else the node keeps there). */
  readonly diskBytes: number;
  readonly chaindataDiskBytes: number;
  /** Key tag (a letter, or the byte in hex when not printable) → its entries. */
  readonly tags: Record<string, TagSize>;
  readonly compactSeconds: number;
}

function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? bytesUnder(path) : statSync(path).size;
  }
  return total;
}

export async function measureDatadir(dataDir: string): Promise<DatadirSize> {
  const chaindata = join(dataDir, 'chaindata');
  const db = new ClassicLevel<Buffer, Buffer>(chaindata, { keyEncoding: 'buffer', valueEncoding: 'buffer' });
  await db.open();
  let compactSeconds = 0;
  try {
    const started = performance.now();
    await db.compactRange(Buffer.alloc(0), Buffer.alloc(64, 0xff));
    compactSeconds = (performance.now() - started) / 1000;
  } finally {
    await db.close();
  }
  // The scan is `svc-node db stats`'s, so the bench and the operator's command count the same way.
  const tags: Record<string, TagSize> = {};
  for (const t of await chainDbTableStats(chaindata))
    tags[t.tag] = { entries: t.entries, keyBytes: t.keyBytes, valueBytes: t.valueBytes };
  return { diskBytes: bytesUnder(dataDir), chaindataDiskBytes: bytesUnder(chaindata), tags, compactSeconds };
}

/**
 * Small keys and values pass to LevelDB through reused scratch views (put-scratch.ts): every record of a batch is
 * stored with its own bytes (the views are overwritten put after put, so this holds only because the binding copies
 * each put at once), deletes remove the right keys, and the callers' arrays are left as they were.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChainDB, WriteBatch } from './chain-db.js';
import { PutScratch } from './put-scratch.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Deterministic bytes: `length` bytes from `seed`. */
const bytes = (length: number, seed: number) => Uint8Array.from({ length }, (_, i) => (seed * 31 + i * 7) & 0xff);

describe('PutScratch', () => {
  it('stores every record of a batch with its own key and value, through one reused page', async () => {
    const d = mkdtempSync(join(tmpdir(), 'put-scratch-'));
    dirs.push(d);
    for (const writeBehind of [false, true]) {
      const db = await ChainDB.open(join(d, String(writeBehind)), { writeBehind });
      const records: [Uint8Array, Uint8Array][] = [];
      for (let i = 0; i < 200; i++) {
        // Keys 1–70 bytes (both sides of the on-heap limit), values 0–130; some are views at an offset.
        const key = bytes(1 + (i % 70), i);
        key[0] = 0x70;
        key[key.length - 1] = i;
        const value = i % 5 === 0 ? bytes(140, i + 1000).subarray(3, 3 + (i % 60)) : bytes(i % 131, i + 500);
        records.push([key, value]);
      }
      const before = records.map(([key, value]) => [Array.from(key), Array.from(value)]);
      const batch = new WriteBatch();
      for (const [key, value] of records) batch.put(key, value);
      const dropped = records.filter((_, i) => i % 7 === 3).map(([key]) => key);
      for (const key of dropped) batch.del(key);
      await db.write(batch);
      await db.flushed();
      expect(records.map(([key, value]) => [Array.from(key), Array.from(value)])).toEqual(before);
      await db.close();

      // Reopened: what LevelDB itself holds, not the write-behind queue.
      const stored = await ChainDB.open(join(d, String(writeBehind)));
      for (const [i, [key, value]] of records.entries()) {
        const got = await stored.get(key);
        if (i % 7 === 3) expect(got).toBeUndefined();
        else expect(got && Array.from(got)).toEqual(Array.from(value));
      }
      await stored.close();
    }
  });

  it('hands back long arrays and views at an offset as they are, small ones as copies', () => {
    const scratch = new PutScratch();
    const long = bytes(65, 1);
    expect(scratch.key(long)).toBe(long);
    const view = bytes(100, 2).subarray(1, 33);
    expect(scratch.value(view)).toBe(view);
    const small = bytes(33, 3);
    const copied = scratch.key(small);
    expect(copied).not.toBe(small);
    expect(Array.from(copied)).toEqual(Array.from(small));
    // The key and value views of one put do not overlap.
    const value = scratch.value(bytes(33, 4));
    expect(Array.from(copied)).toEqual(Array.from(small));
    expect(Array.from(value)).toEqual(Array.from(bytes(33, 4)));
  });
});

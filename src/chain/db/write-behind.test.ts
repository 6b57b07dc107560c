/**
 * ChainDB with write-behind on a real LevelDB: a write returns before LevelDB has it, reads and key scans see it
 * at once, batches land in order with the later value winning, close stores everything queued, and a failed
 * write refuses the writes after it (they would build on a block the disk does not hold). Batches queued in
 * different turns of the event loop within one group window share a write, which `flushed` starts at once.
 * `getMany` (the pruner's batched reads) answers from the queue before LevelDB.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChainDB, WriteBatch } from './chain-db.js';
import { WriteBehindQueue } from './write-behind.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const dir = () => {
  const d = mkdtempSync(join(tmpdir(), 'write-behind-'));
  dirs.push(d);
  return d;
};
const k = (...bytes: number[]) => Uint8Array.from(bytes);
const text = (v: Uint8Array | undefined) => (v === undefined ? undefined : Buffer.from(v).toString());
const value = (s: string) => new Uint8Array(Buffer.from(s));

async function keysOf(db: ChainDB, gte: Uint8Array, lt: Uint8Array): Promise<number[]> {
  const iterator = db.keys({ gte, lt });
  const found = await iterator.nextv(100);
  await iterator.close();
  return found.map((key) => key[1]!);
}

describe('ChainDB write-behind', () => {
  it('serves queued writes at once, lands them in order and stores them all by close', async () => {
    const path = dir();
    const db = await ChainDB.open(path, { writeBehind: true });
    await db.write(new WriteBatch().put(k(1, 1), value('a1')).put(k(1, 2), value('b1')));
    await db.write(new WriteBatch().put(k(1, 1), value('a2')).del(k(1, 2)).put(k(1, 3), value('c2')));
    // Nothing awaited the disk: the queue answers, the later batch winning.
    expect(text(await db.get(k(1, 1)))).toBe('a2');
    expect(await db.get(k(1, 2))).toBeUndefined();
    expect(text(db.getSync(k(1, 3)))).toBe('c2');
    expect(await keysOf(db, k(1), k(2))).toEqual([1, 3]);
    await db.close();

    const reopened = await ChainDB.open(path);
    expect(text(await reopened.get(k(1, 1)))).toBe('a2');
    expect(await reopened.get(k(1, 2))).toBeUndefined();
    expect(text(await reopened.get(k(1, 3)))).toBe('c2');
    await reopened.close();
  });

  it('drops written batches from its read index while later ones still wait (an import never lets it drain)', async () => {
    // Each write lands when the test says: batch b is queued while the write of b - 1 is under way.
    const writes: (() => void)[] = [];
    const queue = new WriteBehindQueue(() => new Promise<void>((resolve) => writes.push(resolve)), 0);
    const until = async (ready: () => boolean) => {
      while (!ready()) await new Promise((resolve) => setImmediate(resolve));
    };
    const key = (b: number, j: number) => Uint8Array.of(b >> 8, b & 255, j >> 8, j & 255);
    const batch = (b: number) =>
      Array.from({ length: 1000 }, (_, j) => ({ type: 'put' as const, key: key(b, j), value: Uint8Array.of(b) }));
    await queue.enqueue(batch(0));
    await until(() => writes.length === 1);
    let most = 0;
    for (let b = 1; b < 60; b++) {
      await queue.enqueue(batch(b));
      // A read indexes every queued batch.
      expect(queue.lookup(key(b, 7))?.value).toEqual(Uint8Array.of(b));
      writes.shift()!();
      await until(() => writes.length === 1);
      // Batch b - 1 is in LevelDB, LevelDB answers for it; batch b is being written, the queue answers.
      expect(queue.lookup(key(b - 1, 7))).toBeUndefined();
      expect(queue.lookup(key(b, 7))?.value).toEqual(Uint8Array.of(b));
      most = Math.max(most, queue.indexed);
    }
    expect(most).toBeLessThan(20_000);
    writes.shift()!();
    await queue.flushed();
    expect(queue.lookup(key(59, 7))).toBeUndefined();
    expect(queue.indexed).toBe(0);
  });

  it('getMany answers queued values, stored values and absent keys in the order asked', async () => {
    const db = await ChainDB.open(dir(), { writeBehind: true });
    await db.writeNow(new WriteBatch().put(k(4, 1), value('stored')).put(k(4, 2), value('old')));
    await db.write(new WriteBatch().put(k(4, 2), value('queued')).put(k(4, 3), value('new')).del(k(4, 1)));
    const found = await db.getMany([k(4, 3), k(4, 9), k(4, 2), k(4, 1)]);
    expect(found.map(text)).toEqual(['new', undefined, 'queued', undefined]);
    await db.flushed();
    expect((await db.getMany([k(4, 2), k(4, 9), k(4, 3)])).map(text)).toEqual(['queued', undefined, 'new']);
    await db.close();
  });

  it('writeNow lands after the queued batches, past the queue, and is in LevelDB when it returns', async () => {
    const path = dir();
    const db = await ChainDB.open(path, { writeBehind: true });
    await db.write(new WriteBatch().put(k(2, 1), value('queued')).put(k(2, 2), value('queued')));
    await db.writeNow(new WriteBatch().put(k(2, 1), value('now')));
    // The queued batch went first (the later value wins) and nothing is left queued for these keys.
    expect(text(db.getSync(k(2, 1)))).toBe('now');
    expect(text(db.getSync(k(2, 2)))).toBe('queued');
    await db.writeNow(new WriteBatch().put(k(2, 3), value('alone')));
    expect(text(db.getSync(k(2, 3)))).toBe('alone');
    await db.close();
    const reopened = await ChainDB.open(path);
    expect(text(await reopened.get(k(2, 1)))).toBe('now');
    expect(text(await reopened.get(k(2, 3)))).toBe('alone');
    await reopened.close();
  });

  it('writes the batches of one window together, and at once when asked to flush', async () => {
    const written: string[] = [];
    // A window no test run outlasts: only `flushed` can start the write.
    const queue = new WriteBehindQueue(async (ops) => {
      written.push(ops.map((op) => op.key[0]).join(','));
    }, 3_600_000);
    for (const key of [1, 2, 3]) {
      await queue.enqueue([{ type: 'put', key: k(key), value: value(`v${key}`) }]);
      // Each block of a client sending one transaction at a time comes in a turn of its own.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    expect(written).toEqual([]);
    expect(text(queue.lookup(k(2))?.value)).toBe('v2');
    await queue.flushed();
    expect(written).toEqual(['1,2,3']);
    expect(queue.lookup(k(2))).toBeUndefined();
    expect(queue.queued).toBe(0);
  });

  it('indexes queued batches only when read, in queue order, and forgets written ones either way', async () => {
    const queue = new WriteBehindQueue(async () => {}, 3_600_000);
    const put = (key: number, v: string) => queue.enqueue([{ type: 'put', key: k(key), value: value(v) }]);
    // No read: no key is turned into a string (the index's cost), neither when queued nor when written.
    const keyStrings = vi.spyOn(Buffer.prototype, 'toString');
    for (let i = 0; i < 50; i++) await put(9, `unread ${i}`);
    await queue.flushed();
    expect(keyStrings).not.toHaveBeenCalled();
    keyStrings.mockRestore();
    expect(queue.lookup(k(9))).toBeUndefined();
    // A read indexes what is queued; batches queued after it are indexed by the next read, the later value winning.
    await put(1, 'a');
    expect(text(queue.lookup(k(1))?.value)).toBe('a');
    await put(1, 'b');
    await queue.enqueue([{ type: 'del', key: k(2) }]);
    await put(2, 'c');
    expect(text(queue.lookup(k(1))?.value)).toBe('b');
    expect(text(queue.lookup(k(2))?.value)).toBe('c');
    await put(3, 'd');
    await queue.flushed();
    for (const key of [1, 2, 3]) expect(queue.lookup(k(key))).toBeUndefined();
  });

  it('refuses writes after a failed one and keeps serving what was queued', async () => {
    const written: string[] = [];
    let fail = false;
    const queue = new WriteBehindQueue(async (ops) => {
      if (fail) throw new Error('disk full');
      written.push(ops.map((op) => op.key[0]).join(','));
    });
    await queue.enqueue([{ type: 'put', key: k(1), value: value('one') }]);
    await queue.enqueue([{ type: 'put', key: k(2), value: value('two') }]);
    await queue.flushed();
    // Queued together, written together: one atomic write holding both batches in order.
    expect(written).toEqual(['1,2']);
    expect(queue.lookup(k(1))).toBeUndefined(); // written: LevelDB answers for it now

    fail = true;
    await queue.enqueue([{ type: 'put', key: k(3), value: value('three') }]);
    await expect(queue.flushed()).rejects.toThrow(/queued chain database write failed/);
    expect(text(queue.lookup(k(3))?.value)).toBe('three');
    await expect(queue.enqueue([{ type: 'put', key: k(4), value: value('four') }])).rejects.toThrow(/failed/);
  });
});

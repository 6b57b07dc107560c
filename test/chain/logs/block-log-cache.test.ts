/** The block log cache's bound (logs held, a block without logs counting one) and its least-recently-used order. */
import { describe, expect, it } from 'vitest';
import { BlockLogCache } from '../../../src/chain/logs/block-log-cache.js';
import type { Log } from '../../../src/chain/logs/types.js';

const hash = (n: number) => new Uint8Array(32).fill(n);
const logs = (count: number) => Array.from({ length: count }, () => ({}) as Log);

describe('BlockLogCache', () => {
  it('holds at most maxLogs logs, dropping the least recently used blocks first', () => {
    const cache = new BlockLogCache(10);
    cache.set(hash(1), logs(4));
    cache.set(hash(2), logs(4));
    cache.set(hash(3), []); // counts one
    expect(cache.size).toBe(9);
    expect(cache.get(hash(1))).toHaveLength(4); // now the most recently used
    cache.set(hash(4), logs(3)); // 12 > 10: block 2 goes (least recently used), and that is room enough
    expect(cache.size).toBe(8);
    expect(cache.get(hash(2))).toBeUndefined();
    expect(cache.get(hash(3))).toEqual([]);
    cache.set(hash(5), logs(7)); // 15 > 10: blocks 1 and 4 go (3 was used since)
    expect(cache.get(hash(1))).toBeUndefined();
    expect(cache.get(hash(4))).toBeUndefined();
    expect(cache.get(hash(3))).toEqual([]);
    expect(cache.size).toBe(8);
  });

  it('replaces a block it holds, and holds no block larger than the bound', () => {
    const cache = new BlockLogCache(5);
    cache.set(hash(1), logs(2));
    cache.set(hash(1), logs(3));
    expect(cache.size).toBe(3);
    cache.set(hash(2), logs(6));
    expect(cache.get(hash(2))).toBeUndefined();
    expect(cache.get(hash(1))).toHaveLength(3);
    expect(() => new BlockLogCache(0)).toThrow(RangeError);
  });
});

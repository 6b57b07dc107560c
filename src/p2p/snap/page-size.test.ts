import { describe, expect, it } from 'vitest';
import { nextPageSize } from './page-size.js';

/** Entries read by a walk that pages with nextPageSize until `budget` bytes of entries of `size` bytes are taken. */
function leavesRead(budget: number, size: (i: number) => number, maxPage = 1024): { read: number; taken: number } {
  let read = 0;
  let bytes = 0;
  let taken = 0;
  for (;;) {
    const page = nextPageSize(maxPage, budget - bytes, { bytes, count: taken }, 40);
    // A page past its last entry reads one more leaf, to know where the next page starts (trie-range-now.ts).
    read += page + 1;
    for (let i = 0; i < page; i++) {
      bytes += size(taken++);
      if (bytes >= budget) return { read, taken };
    }
  }
}

describe('nextPageSize', () => {
  it('ends a byte-bounded walk within a few leaves of the cut, for small and for large entries', () => {
    const small = leavesRead(64 * 1024, () => 37);
    expect(small.taken).toBe(Math.ceil((64 * 1024) / 37));
    expect(small.read - small.taken).toBeLessThanOrEqual(4);
    // Entries larger than the first guess: the first page over-reads, the later ones follow the mean.
    const large = leavesRead(64 * 1024, (i) => 90 + (i % 20));
    expect(large.read - large.taken).toBeLessThanOrEqual(Math.ceil((64 * 1024) / 40) - large.taken + 4);
    const mixed = leavesRead(512 * 1024, (i) => (i % 7 === 0 ? 140 : 38));
    expect(mixed.read - mixed.taken).toBeLessThan(mixed.taken * 0.03);
  });

  it('never asks for more than the largest page, nor for none', () => {
    expect(nextPageSize(1024, 2 * 1024 * 1024, { bytes: 0, count: 0 }, 40)).toBe(1024);
    expect(nextPageSize(3, 2 * 1024 * 1024, { bytes: 0, count: 0 }, 40)).toBe(3);
    expect(nextPageSize(1024, -5, { bytes: 100, count: 2 }, 40)).toBe(16);
    expect(nextPageSize(1, 0, { bytes: 0, count: 0 }, 40)).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { unpaddedBytes } from '../base/unpadded-bytes.js';
import { encodeNumber, keys } from './keys.js';
import { RecordArena } from './record-arena.js';

describe('RecordArena', () => {
  it('gives disjoint zeroed views of shared off-heap pages, a new page when one is full', () => {
    const arena = new RecordArena();
    const a = arena.take(33);
    const b = arena.take(33);
    a.fill(1);
    expect(b.every((x) => x === 0)).toBe(true);
    expect(a.buffer).toBe(b.buffer);
    expect(b.byteOffset).toBe(a.byteOffset + 33);
    // Larger than what is left of the page: a page of its own.
    const big = arena.take(100_000);
    expect(big.length).toBe(100_000);
    expect(big.buffer).not.toBe(a.buffer);
    expect(arena.copy(Uint8Array.of(7, 8, 9))).toEqual(Uint8Array.of(7, 8, 9));
  });

  it('keys and small values made in it are the bytes of the fresh ones', () => {
    const arena = new RecordArena();
    const hash = Uint8Array.from({ length: 32 }, (_, i) => i * 7);
    for (const n of [0n, 1n, 255n, 2n ** 32n + 5n, 2n ** 53n + 1n, 2n ** 64n - 1n]) {
      expect(keys.canonical(n, arena.take)).toEqual(keys.canonical(n));
      expect(encodeNumber(n, arena.take)).toEqual(encodeNumber(n));
      expect(unpaddedBytes(n, arena.take)).toEqual(unpaddedBytes(n));
    }
    for (const make of [keys.header, keys.number, keys.totalDifficulty, keys.state])
      expect(make(hash, arena.take)).toEqual(make(hash));
  });
});

import { RLP } from '@ethereumjs/rlp';
import { describe, expect, it } from 'vitest';
import { encodeRlp, type RlpItem } from './rlp-encode.js';

/** A deterministic pseudo-random item: strings of every length class, lists nested a few levels. */
function item(seed: number, depth: number): RlpItem {
  const r = (seed * 2654435761) >>> 0;
  if (depth === 0 || r % 3 === 0) {
    const lengths = [0, 1, 1, 2, 31, 32, 55, 56, 57, 255, 256, 1_100];
    const n = lengths[r % lengths.length]!;
    // One-byte strings both under 0x80 (encoded as themselves) and at or over it (with a header).
    return Uint8Array.from({ length: n }, (_, i) => (r >> (i % 24)) & (n === 1 && r % 2 === 0 ? 0x7f : 0xff));
  }
  return Array.from({ length: r % 18 }, (_, i) => item(seed * 31 + i + 1, depth - 1));
}

describe('encodeRlp', () => {
  it('gives the bytes of @ethereumjs/rlp for strings and nested lists of every length class', () => {
    for (let seed = 1; seed < 200; seed++) {
      const x = item(seed, 3);
      expect(Buffer.from(encodeRlp(x)).equals(Buffer.from(RLP.encode(x as Parameters<typeof RLP.encode>[0])))).toBe(
        true,
      );
    }
    // A list whose payload needs a three-byte length.
    const big = Array.from({ length: 2_000 }, (_, i) => [new Uint8Array(32).fill(i & 0xff), Uint8Array.of(i & 0x7f)]);
    expect(Buffer.from(encodeRlp(big)).equals(Buffer.from(RLP.encode(big)))).toBe(true);
  });
});

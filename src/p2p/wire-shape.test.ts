import { RLP } from '@ethereumjs/rlp';
import { describe, expect, it } from 'vitest';
import { decodeRlp, decodeRlpViews, MAX_RLP_DEPTH } from './wire-shape.js';

type Tree = Uint8Array | Tree[];

/** A random RLP tree with strings of every length class (empty, single low byte, short, long) and nested lists. */
function tree(seed: { n: number }, depth: number): Tree {
  const r = () => (seed.n = (seed.n * 1103515245 + 12345) % 2 ** 31);
  if (depth > 0 && r() % 3 === 0) return Array.from({ length: r() % 6 }, () => tree(seed, depth - 1));
  const sizes = [0, 1, 2, 31, 55, 56, 57, 300, 70_000];
  const bytes = new Uint8Array(sizes[r() % sizes.length]!).map(() => r() & 0xff);
  return bytes;
}

const hex = (t: unknown): unknown =>
  t instanceof Uint8Array ? Buffer.from(t).toString('hex') : (t as unknown[]).map(hex);

describe('decodeRlpViews', () => {
  it('decodes what the library decodes, into views of the input', () => {
    const seed = { n: 7 };
    for (let i = 0; i < 60; i++) {
      const encoded = RLP.encode(Array.from({ length: 5 }, () => tree(seed, 4)) as never);
      const views = decodeRlpViews(encoded);
      expect(hex(views)).toEqual(hex(decodeRlp(encoded)));
      const firstString = (t: Tree): Uint8Array | undefined =>
        t instanceof Uint8Array ? t : t.map(firstString).find((x) => x !== undefined && x.length > 0);
      const s = firstString(views as Tree);
      if (s !== undefined) expect(s.buffer).toBe(encoded.buffer);
    }
  });

  it('rejects what the library rejects: non-canonical forms, overruns, trailing bytes, deep nesting', () => {
    const bad = [
      [0x81, 0x05], // a single byte < 0x80 with a prefix
      [0xb8, 0x02, 0x01, 0x02], // the long form for 2 bytes
      [0xb9, 0x00, 0x40, ...new Uint8Array(64)], // a length with a leading zero
      [0xf8, 0x01, 0x01], // the long list form for 1 byte
      [0x83, 0x01, 0x02], // a string past the end
      [0xc2, 0x83, 0x01, 0x02, 0x03], // an item past the end of its list
      [0xc1, 0x01, 0x02], // trailing bytes
    ];
    for (const b of bad) {
      expect(() => decodeRlp(Uint8Array.from(b)), b.join(',')).toThrow();
      expect(() => decodeRlpViews(Uint8Array.from(b)), b.join(',')).toThrow();
    }
    let deep: Tree = [];
    for (let i = 0; i < MAX_RLP_DEPTH + 1; i++) deep = [deep];
    expect(() => decodeRlpViews(RLP.encode(deep as never))).toThrow(/nested deeper/);
  });
});

import { describe, expect, it } from 'vitest';
import { decodeNumber, encodeNumber } from './keys.js';

/** The 8-byte big-endian form DataView writes. */
function reference(n: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, n);
  return out;
}

describe('encodeNumber', () => {
  it('writes 8 big-endian bytes, as DataView does, on both sides of 2^32 and 2^53', () => {
    const edges = [
      0n,
      1n,
      255n,
      256n,
      2n ** 32n - 1n,
      2n ** 32n,
      2n ** 32n + 1n,
      2n ** 53n - 1n,
      2n ** 53n,
      2n ** 64n - 1n,
    ];
    let x = 0x9e3779b97f4a7c15n;
    const random = Array.from({ length: 300 }, (_, i) => {
      x = (x * 6364136223846793005n + 1442695040888963407n) & (2n ** 64n - 1n);
      return x >> BigInt(i % 60);
    });
    for (const n of [...edges, ...random]) {
      expect(encodeNumber(n), String(n)).toEqual(reference(n));
      expect(decodeNumber(encodeNumber(n))).toBe(n);
    }
  });
});

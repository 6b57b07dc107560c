import { describe, expect, it } from 'vitest';
import { packSeals, unpackSeals } from './packed-seals.js';
import type { SealInput } from './seal.js';

const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (seed * 31 + i * 7) & 0xff);
/** A seal whose byte fields are views into a larger buffer, as a decoded header's are. */
function seal(seed: number, difficulty: bigint, nonce?: bigint): SealInput {
  const header = bytes(540, seed);
  return {
    powHash: bytes(32, seed + 1),
    nonce: nonce ?? header.subarray(500, 508),
    mixDigest: header.subarray(460, 492),
    difficulty,
  };
}
const shown = (s: SealInput) => ({
  powHash: [...s.powHash],
  nonce: typeof s.nonce === 'bigint' ? s.nonce : new DataView(s.nonce.buffer, s.nonce.byteOffset, 8).getBigUint64(0),
  mixDigest: [...s.mixDigest],
  difficulty: s.difficulty,
});

describe('packed seals', () => {
  it('unpack to the same seals, each field apart, for difficulties up to 2^256 - 1 and bigint nonces', () => {
    const seals = [
      seal(1, 1n),
      seal(2, 17_179_869_184n),
      seal(3, (1n << 64n) + 5n),
      seal(4, (1n << 200n) + (1n << 130n) + 3n, 0xfedcba9876543210n),
      seal(5, (1n << 256n) - 1n),
    ];
    const packed = packSeals(seals);
    expect(packed?.length).toBe(seals.length * 104);
    expect(unpackSeals(packed!).map(shown)).toEqual(seals.map(shown));
  });

  it('leave a batch with a seal that does not fit the layout as objects (its verdict names the fault)', () => {
    expect(packSeals([seal(1, 1n), seal(2, 0n)])).toBeUndefined();
    expect(packSeals([seal(1, 1n << 256n)])).toBeUndefined();
    expect(packSeals([{ ...seal(1, 1n), mixDigest: bytes(31, 1) }])).toBeUndefined();
    expect(packSeals([{ ...seal(1, 1n), nonce: bytes(9, 1) }])).toBeUndefined();
    expect(packSeals([seal(1, 1n, 1n << 64n)])).toBeUndefined();
  });
});

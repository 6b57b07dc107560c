import { Common, Mainnet } from '@ethereumjs/common';
import { Bloom } from '@ethereumjs/vm';
import { describe, expect, it } from 'vitest';
import { keccak256 } from '../base/crypto.js';

import { bloomMemoSize, installFastBloomAdd, libraryBloomAdd } from './fast-bloom.js';

// The library's method (another test file in the same process may have replaced it already): the reference.
const libraryAdd = libraryBloomAdd();

/** A small deterministic generator, so a failure names its case. */
function entries(count: number): Uint8Array[] {
  let seed = 0x1b873593;
  const next = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
  return Array.from({ length: count }, (_, i) => Uint8Array.from({ length: [20, 32, 0, 1, 64][i % 5]! }, next));
}

function bloomWith(add: (this: Bloom, e: Uint8Array) => void, items: readonly Uint8Array[], common?: Common): string {
  const bloom = new Bloom(undefined, common);
  for (const e of items) add.call(bloom, e);
  return Buffer.from(bloom.bitvector).toString('hex');
}

describe('installFastBloomAdd', () => {
  installFastBloomAdd();
  const common = new Common({ chain: Mainnet, customCrypto: { keccak256 } });

  it('replaces the library method', () => {
    expect(Bloom.prototype.add).not.toBe(libraryAdd);
  });

  it('sets the bits the library sets, entry by entry and accumulated, with the default and a custom keccak', () => {
    const items = entries(500);
    for (const c of [undefined, common]) {
      for (const e of items.slice(0, 100))
        expect(bloomWith(Bloom.prototype.add, [e], c)).toBe(bloomWith(libraryAdd, [e], c));
      for (let n = 1; n <= items.length; n += 97)
        expect(bloomWith(Bloom.prototype.add, items.slice(0, n), c)).toBe(bloomWith(libraryAdd, items.slice(0, n), c));
    }
  });

  it('answers repeated entries from its memo with the same bits, per hash function, within its bound', () => {
    const items = entries(300);
    const repeated = [...items, ...items.slice(0, 150), ...items];
    // Another hash of the same entries: positions remembered for one function must not answer for another.
    const other = new Common({ chain: Mainnet, customCrypto: { keccak256: (m) => keccak256(Uint8Array.of(7, ...m)) } });
    for (const c of [common, other, undefined, common, other]) {
      for (const e of items.slice(0, 50))
        expect(bloomWith(Bloom.prototype.add, [e], c)).toBe(bloomWith(libraryAdd, [e], c));
      expect(bloomWith(Bloom.prototype.add, repeated, c)).toBe(bloomWith(libraryAdd, repeated, c));
    }
    const many = Array.from({ length: 5000 }, (_, i) => Uint8Array.of(i >> 8, i & 255, 1, 2));
    expect(bloomWith(Bloom.prototype.add, many, common)).toBe(bloomWith(libraryAdd, many, common));
    expect(bloomMemoSize()).toBeLessThanOrEqual(4096);
    expect(bloomMemoSize()).toBeGreaterThan(0);
  });

  it('keeps the library result for a keccak that returns a view into a larger buffer', () => {
    const offsetKeccak = (m: Uint8Array) => {
      const wide = new Uint8Array(40);
      wide.set(keccak256(m), 8);
      return wide.subarray(8);
    };
    const odd = new Common({ chain: Mainnet, customCrypto: { keccak256: offsetKeccak } });
    const items = entries(50);
    expect(bloomWith(Bloom.prototype.add, items, odd)).toBe(bloomWith(libraryAdd, items, odd));
  });
});

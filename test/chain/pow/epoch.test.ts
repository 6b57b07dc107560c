import { beforeAll, describe, expect, it } from 'vitest';
import { cacheSize, datasetSize, epochAt, seedHash, seedIterations } from '../../../src/chain/pow/epoch.js';
import { loadKeccak } from '../../../src/chain/base/keccak.js';
import { toHex } from './helpers.js';

/** Independent of the implementation's own primality test, on purpose. */
function isPrime(n: number): boolean {
  if (!Number.isInteger(n) || n < 2) return false;
  for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;
  return true;
}

const etc = { ecip1099Block: 11_700_000n };
const mordor = { ecip1099Block: 2_520_000 };

beforeAll(async () => {
  await loadKeccak();
});

describe('Etchash epochs (ECIP-1099)', () => {
  it('switches etc from 30,000-block epoch 389 to 60,000-block epoch 195 at block 11,700,000', () => {
    expect(epochAt(11_699_999n, etc)).toEqual({ epoch: 389, epochLength: 30_000 });
    expect(epochAt(11_700_000n, etc)).toEqual({ epoch: 195, epochLength: 60_000 });
    expect(epochAt(11_759_999n, etc)).toEqual({ epoch: 195, epochLength: 60_000 });
    expect(epochAt(11_760_000n, etc)).toEqual({ epoch: 196, epochLength: 60_000 });
  });

  it('switches mordor from epoch 83 to 42 at block 2,520,000', () => {
    expect(epochAt(2_519_999, mordor)).toEqual({ epoch: 83, epochLength: 30_000 });
    expect(epochAt(2_520_000, mordor)).toEqual({ epoch: 42, epochLength: 60_000 });
  });

  it('keeps 30,000-block epochs without an activation block', () => {
    expect(epochAt(11_700_000n, {})).toEqual({ epoch: 390, epochLength: 30_000 });
    expect(epochAt(29_999, {})).toEqual({ epoch: 0, epochLength: 30_000 });
    expect(epochAt(30_000, {})).toEqual({ epoch: 1, epochLength: 30_000 });
  });

  it('derives the seed from the epoch start counted in 30,000-block steps (2·epoch after the fork)', () => {
    expect(seedIterations(389, 30_000)).toBe(389);
    expect(seedIterations(195, 60_000)).toBe(390);
    expect(seedIterations(42, 60_000)).toBe(84);
    expect(seedIterations(196, 60_000)).toBe(392);
    // The first post-fork seed continues the pre-fork sequence: that of 30,000-block epoch 390, not of epoch 195.
    expect(toHex(seedHash(195, 60_000))).toBe(toHex(seedHash(390)));
    expect(toHex(seedHash(195, 60_000))).not.toBe(toHex(seedHash(195)));
    expect(toHex(seedHash(42, 60_000))).toBe(toHex(seedHash(84)));
  });

  it('sizes the cache by the new epoch number: the fork shrinks the cache', () => {
    const before = cacheSize(epochAt(11_699_999n, etc).epoch);
    const after = cacheSize(epochAt(11_700_000n, etc).epoch);
    expect(after).toBeLessThan(before);
    expect(after).toBe(cacheSize(195));
  });
});

describe('seed hashes and sizes', () => {
  it('matches known Ethash values', () => {
    expect(toHex(seedHash(0))).toBe('00'.repeat(32));
    // keccak256 of 32 zero bytes.
    expect(toHex(seedHash(1))).toBe('290decd9548b62a8d60345a988386fc84ba6bc95484008f6362f93160ef3e563');
    expect(cacheSize(0)).toBe(16_776_896);
    expect(datasetSize(0)).toBe(1_073_739_904);
    expect(cacheSize(1)).toBe(16_907_456);
    expect(datasetSize(1)).toBe(1_082_130_304);
  });

  it('makes every size a prime number of items', () => {
    for (const epoch of [0, 42, 84, 195, 390, 433]) {
      const items = cacheSize(epoch) / 64;
      const pages = datasetSize(epoch) / 128;
      for (const n of [items, pages]) expect(isPrime(n), `${n} items at epoch ${epoch}`).toBe(true);
    }
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { seedHash } from '../../../src/chain/pow/epoch.js';
import { Ethash } from '../../../src/chain/pow/ethash.js';
import { toHex } from './helpers.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** An engine whose store never builds: records which caches were asked for and pre-built. */
async function engineWithStubbedStore(params: { ecip1099Block?: bigint | number }) {
  const ethash = await Ethash.create({ params });
  const got = vi.spyOn(ethash.caches, 'get').mockResolvedValue(new Uint32Array(16));
  const prefetched = vi.spyOn(ethash.caches, 'prefetch').mockImplementation(() => {});
  return { ethash, got, prefetched };
}

describe('Ethash facade', () => {
  it('asks the store for the Etchash epoch of the block', async () => {
    const { ethash, got } = await engineWithStubbedStore({ ecip1099Block: 11_700_000n });
    await ethash.cacheFor(11_699_999n);
    await ethash.cacheFor(11_700_000n);
    expect(got.mock.calls.map(([key]) => key)).toEqual([
      { epoch: 389, epochLength: 30_000 },
      { epoch: 195, epochLength: 60_000 },
    ]);
  });

  it('pre-builds the next epoch in the last tenth of an epoch, across the ECIP-1099 switch too', async () => {
    const { ethash, prefetched } = await engineWithStubbedStore({ ecip1099Block: 11_700_000n });
    await ethash.cacheFor(11_690_000n); // epoch 389, offset 20,000 of 30,000: too early
    expect(prefetched).not.toHaveBeenCalled();
    await ethash.cacheFor(11_699_999n);
    expect(prefetched).toHaveBeenCalledWith({ epoch: 195, epochLength: 60_000 });
    await ethash.cacheFor(11_754_000n); // epoch 195, offset 54,000 of 60,000
    expect(prefetched).toHaveBeenLastCalledWith({ epoch: 196, epochLength: 60_000 });
  });

  it('does not pre-build when told not to', async () => {
    const ethash = await Ethash.create({ params: {}, prebuildNext: false });
    vi.spyOn(ethash.caches, 'get').mockResolvedValue(new Uint32Array(16));
    const prefetched = vi.spyOn(ethash.caches, 'prefetch');
    await ethash.cacheFor(29_999);
    expect(prefetched).not.toHaveBeenCalled();
  });

  it('hands out the work package eth_getWork reports: pow hash, Etchash seed and boundary', async () => {
    const ethash = await Ethash.create({ params: { ecip1099Block: 2_520_000 } });
    const powHash = new Uint8Array(32).fill(7);
    const work = ethash.workPackage(powHash, 1n << 20n, 2_520_000);
    expect(work.powHash).toBe(powHash);
    expect(toHex(work.seedHash)).toBe(toHex(seedHash(84)));
    // 2^256 / 2^20 = 2^236 = 16^59.
    expect(toHex(work.boundary)).toBe(`0000${'1'}${'0'.repeat(59)}`);
  });
});

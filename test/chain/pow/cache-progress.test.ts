/**
 * An Ethash cache build (epoch 0, 16 MiB, a few seconds in a worker thread) logs its start, progress lines at a
 * steady rate with a growing percent, and its end; the cache it builds is the same with or without progress.
 */
import { describe, expect, it } from 'vitest';
import { EthashCacheStore } from '../../../src/chain/pow/cache-store.js';
import { buildCache } from '../../../src/chain/pow/cache.js';
import { cacheSize, seedHash } from '../../../src/chain/pow/epoch.js';
import { loadKeccak } from '../../../src/chain/base/keccak.js';

describe('Ethash cache build progress', () => {
  it('logs start, steady progress lines and the end of a worker build', async () => {
    const lines: Array<{ msg: string; fields: Record<string, unknown> }> = [];
    const store = new EthashCacheStore(undefined, {
      log: { info: (msg, fields = {}) => lines.push({ msg, fields }) },
      progressIntervalMs: 200,
    });
    const cache = await store.get({ epoch: 0, epochLength: 30_000 });
    expect(cache.byteLength).toBe(cacheSize(0));

    expect(lines[0]).toEqual({ msg: 'Ethash cache build started', fields: { epoch: 0, bytes: cacheSize(0) } });
    expect(lines.at(-1)).toMatchObject({
      msg: 'Ethash cache built',
      fields: { epoch: 0, seconds: expect.any(Number) },
    });
    const progress = lines.filter((l) => l.msg === 'Ethash cache build progress').map((l) => l.fields);
    expect(progress.length).toBeGreaterThanOrEqual(3);
    for (const fields of progress)
      expect(fields).toMatchObject({
        epoch: 0,
        total: (cacheSize(0) / 64) * 4,
        itemsPerSecond: expect.any(Number),
        eta: expect.any(String),
      });
    const percents = progress.map((f) => f.percent as number);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.at(-1)).toBeGreaterThan(percents[0]!);
  }, 60_000);

  it('reports progress from a build on this thread too, without changing the cache', async () => {
    await loadKeccak();
    const size = 64 * 20_000;
    const seed = seedHash(0, 30_000);
    const reports: Array<[number, number]> = [];
    const withProgress = buildCache(size, seed, (done, total) => reports.push([done, total]));
    expect(Buffer.from(withProgress.buffer).equals(Buffer.from(buildCache(size, seed).buffer))).toBe(true);
    expect(reports.length).toBeGreaterThan(5);
    expect(reports.every(([, total]) => total === 80_000)).toBe(true);
    expect(reports.map(([done]) => done)).toEqual([...reports.map(([done]) => done)].sort((a, b) => a - b));
  });
});

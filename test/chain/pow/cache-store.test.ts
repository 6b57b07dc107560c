import { mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EthashCacheStore, fileName } from '../../../src/chain/pow/cache-store.js';
import { cacheSize } from '../../../src/chain/pow/epoch.js';
import { keccak256, loadKeccak } from '../../../src/chain/base/keccak.js';
import { persistentCacheDir, toHex, vectors } from './helpers.js';

const epoch0 = { epoch: 0, epochLength: 30_000 };
const cacheHash = (cache: Uint32Array) =>
  toHex(keccak256(new Uint8Array(cache.buffer, cache.byteOffset, cache.byteLength)));
const scratchDirs: string[] = [];

async function scratchDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ethash-store-'));
  scratchDirs.push(dir);
  return dir;
}

beforeAll(async () => {
  await loadKeccak();
});

afterAll(async () => {
  await Promise.all(scratchDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('EthashCacheStore', () => {
  it('rebuilds a wrong-size file in a worker without blocking the event loop, atomically, pruning old files', async () => {
    const dir = await scratchDir();
    const stale = join(dir, 'ethash-cache-R23-99-0123456789abcdef');
    await writeFile(stale, 'old');
    await utimes(stale, new Date(2000, 0, 1), new Date(2000, 0, 1));
    await writeFile(join(dir, fileName(epoch0)), new Uint8Array(1000)); // e.g. a file from a broken copy

    const warnings: string[] = [];
    const store = new EthashCacheStore(dir, { onDisk: 1, onWarning: (m) => warnings.push(m) });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    const started = performance.now();
    const cache = await store.get(epoch0);
    const elapsed = performance.now() - started;
    clearInterval(ticker);

    expect(warnings.join('\n')).toMatch(/has 1000 bytes, expected 16776896: rebuilding/);
    expect(cacheHash(cache)).toBe(vectors.first.cache_hash);
    // A build on the event loop would starve the ticker for the whole build.
    expect(ticks).toBeGreaterThan((elapsed / 20) * 0.5);
    // The rebuilt file replaced the bad one under the final name; no temp file left, the stale one pruned.
    expect(await readdir(dir)).toEqual([fileName(epoch0)]);
    expect((await stat(join(dir, fileName(epoch0)))).size).toBe(cacheSize(0));
    expect(store.peek(epoch0)).toBe(cache);
  });

  it('loads a stored cache from disk', async () => {
    const fromDisk = await new EthashCacheStore(persistentCacheDir, { useWorker: false }).get(epoch0);
    expect(fromDisk.byteLength).toBe(cacheSize(0));
    expect(cacheHash(fromDisk)).toBe(vectors.first.cache_hash);
  });

  it('shares one load between concurrent callers and keeps at most `inMemory` caches', async () => {
    const store = new EthashCacheStore(persistentCacheDir, { inMemory: 1, useWorker: false });
    const [a, b] = await Promise.all([store.get(epoch0), store.get(epoch0)]);
    expect(a).toBe(b);
    // Same epoch number, other epoch length: a different key (here with the same seed, so the same file).
    const other = { epoch: 0, epochLength: 60_000 };
    await store.get(other);
    expect(store.peek(other)).toBeDefined();
    expect(store.peek(epoch0)).toBeUndefined();
  });
});

import { mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ForkCache } from './fork-cache.js';

const dev = { chainId: '1337', genesisHash: '0xaa' };
let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'svc-node-fork-cache-unit-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const kib = (n: number) => new Uint8Array(n * 1024);

describe('the fork cache', () => {
  it('keeps one file per answer under <chain id>/<block>, and nothing half-written', async () => {
    const dir = (await new ForkCache({ dir: root, maxBytes: 1 << 20 }).forkDir(dev, 12n))!;
    await Promise.all([dir.write('code-ab.bin', kib(1)), dir.write('code-ab.bin', kib(1))]);
    expect(readdirSync(join(root, '1337', '12')).sort()).toEqual(['code-ab.bin', 'meta.json']);
    expect((await dir.read('code-ab.bin'))?.length).toBe(1024);
    expect(await dir.read('code-cd.bin')).toBeUndefined();
  });

  it('does not serve a directory written for another chain with the same chain id', async () => {
    const cache = new ForkCache({ dir: root, maxBytes: 1 << 20 });
    await (await cache.forkDir(dev, 12n))!.write('header-12.json', '{}');
    expect(await cache.forkDir({ ...dev, genesisHash: '0xbb' }, 12n)).toBeUndefined();
    expect(await new ForkCache({ dir: root, maxBytes: 0 }).forkDir(dev, 12n)).toBeUndefined();
  });

  it('past its bound deletes the forks used least recently, never one it has open', async () => {
    const earlier = new ForkCache({ dir: root, maxBytes: 1 << 20 });
    for (const block of [1n, 2n, 3n]) await (await earlier.forkDir(dev, block))!.write('proof-a.json', kib(4));
    // Block 2 was used last; block 1 before block 3.
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    for (const [block, s] of [
      ['1', 1],
      ['3', 2],
      ['2', 3],
    ] as const)
      utimesSync(join(root, '1337', block, 'meta.json'), at(s), at(s));

    const cache = new ForkCache({ dir: root, maxBytes: 14 * 1024 });
    const open = (await cache.forkDir(dev, 4n))!;
    await open.write('proof-a.json', kib(4));
    expect(readdirSync(join(root, '1337')).sort()).toEqual(['2', '3', '4']);
    await open.write('proof-b.json', kib(8));
    expect(readdirSync(join(root, '1337'))).toEqual(['4']);
    // Alone over the bound: after the entry that took it there, nothing more is written; what is there is read.
    await open.write('proof-c.json', kib(4));
    await open.write('proof-d.json', kib(1));
    expect(await open.read('proof-d.json')).toBeUndefined();
    expect((await open.read('proof-b.json'))?.length).toBe(8 * 1024);
    expect((await cache.list()).map((f) => [f.block, f.entries, f.bytes])).toEqual([['4', 3, 16 * 1024]]);
  });

  it('clears one fork, one chain or everything', async () => {
    const cache = new ForkCache({ dir: root, maxBytes: 1 << 20 });
    for (const [who, block] of [
      [dev, 1n],
      [dev, 2n],
      [{ chainId: '61', genesisHash: '0xcc' }, 9n],
    ] as const)
      await (await cache.forkDir(who, block))!.write('code-ab.bin', kib(1));
    expect(await cache.clear('1337', '2')).toEqual({ forks: 1, bytes: 1024 });
    expect(await cache.clear('61')).toEqual({ forks: 1, bytes: 1024 });
    expect((await cache.list()).map((f) => `${f.chainId}/${f.block}`)).toEqual(['1337/1']);
    expect(await cache.clear()).toEqual({ forks: 1, bytes: 1024 });
    expect(await cache.list()).toEqual([]);
  });
});

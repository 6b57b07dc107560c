import { createMPT } from '@ethereumjs/mpt';
import { bytesToUnprefixedHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { keccak256 } from '../base/crypto.js';
import { buildRangeTrie } from '../view/snap-store.js';
import { type TriePage, trieRange } from './trie-range.js';
import { trieRangeNow } from './trie-range-now.js';

const entries = Array.from({ length: 2000 }, (_, i) => ({
  key: keccak256(new Uint8Array([i & 0xff, i >> 8, 3])),
  // Short values make embedded nodes deep in the trie, which the walk must read inside their parents.
  value: i % 3 === 0 ? new Uint8Array([i & 0x7f]) : keccak256(new Uint8Array([i & 0xff, i >> 8])),
})).sort((a, b) => Buffer.compare(a.key, b.key));
// Two keys sharing all but the last nibble: a branch at depth 63 whose leaves are embedded in it.
const twin = new Uint8Array(32).fill(0x77);
entries.push({ key: twin, value: new Uint8Array([1]) }, { key: twin.with(31, 0x78), value: new Uint8Array([2]) });
entries.sort((a, b) => Buffer.compare(a.key, b.key));

const { root, nodes } = await buildRangeTrie(entries);
const stored = new Map(nodes.map(([hash, encoded]) => [bytesToUnprefixedHex(hash), encoded]));
const kept: string[] = [];
const read = (hash: Uint8Array, keep: boolean) => {
  if (keep) kept.push(bytesToUnprefixedHex(hash));
  return stored.get(bytesToUnprefixedHex(hash));
};
// The library's walk over the same nodes (a trie on a plain map database goes node by node).
const trie = await createMPT({ useKeyHashingFunction: keccak256 });
for (const [hash, encoded] of nodes) await trie.database().put(hash, encoded);
trie.root(root);

const plain = (page: TriePage | undefined) =>
  page && {
    keys: page.entries.map((e) => bytesToUnprefixedHex(e.key)),
    values: page.entries.map((e) => bytesToUnprefixedHex(e.value)),
    next: page.next && bytesToUnprefixedHex(page.next),
  };

describe('trieRangeNow', () => {
  it('pages through the trie exactly as the node-by-node walk does, from any start', async () => {
    const starts = [
      new Uint8Array(32),
      entries[0]!.key,
      entries[777]!.key,
      entries[777]!.key.with(31, entries[777]!.key[31]! ^ 1),
      twin,
      twin.with(31, 0x77 + 1),
      new Uint8Array(32).fill(0xff),
    ];
    for (const start of starts)
      for (const limit of [1, 300, 5000]) {
        const fast = plain(trieRangeNow(read, root, start, limit));
        expect(fast).toEqual(plain(await trieRange(trie, start, limit)));
        const from = entries.findIndex((e) => Buffer.compare(e.key, start) >= 0);
        const want = from < 0 ? [] : entries.slice(from, from + limit);
        expect(fast?.keys).toEqual(want.map((e) => bytesToUnprefixedHex(e.key)));
      }
  });

  it('walks the whole trie page by page, each key once', () => {
    const seen: string[] = [];
    let start: Uint8Array | undefined = new Uint8Array(32);
    while (start !== undefined) {
      const page: TriePage = trieRangeNow(read, root, start, 128)!;
      seen.push(...page.entries.map((e) => bytesToUnprefixedHex(e.key)));
      start = page.next;
    }
    expect(seen).toEqual(entries.map((e) => bytesToUnprefixedHex(e.key)));
  });

  it('keeps only the top levels in the node cache, and gives up on a node it cannot read', async () => {
    // 12,000 keys: nearly all leaves sit 4 and more nibbles deep, under the levels that are kept.
    const many = Array.from({ length: 12_000 }, (_, i) => ({
      key: keccak256(new Uint8Array([i & 0xff, i >> 8, 5])),
      value: new Uint8Array([1, 2, 3]),
    })).sort((a, b) => Buffer.compare(a.key, b.key));
    const big = await buildRangeTrie(many);
    const bigNodes = new Map(big.nodes.map(([hash, encoded]) => [bytesToUnprefixedHex(hash), encoded]));
    const keptHere = new Set<string>();
    const readBig = (hash: Uint8Array, keep: boolean) => {
      if (keep) keptHere.add(bytesToUnprefixedHex(hash));
      return bigNodes.get(bytesToUnprefixedHex(hash));
    };
    expect(trieRangeNow(readBig, big.root, new Uint8Array(32), 30_000)?.entries.length).toBe(12_000);
    // The root and the branches of the first levels (at most 1 + 16 + 256 + 4,096), not most of the leaves.
    expect(keptHere.size).toBeGreaterThan(256);
    expect(keptHere.size).toBeLessThan(6_000);
    // A walker of many small tries keeps none of their nodes, and reads the same entries.
    kept.length = 0;
    expect(trieRangeNow(read, root, new Uint8Array(32), 5000, 0)?.entries.length).toBe(entries.length);
    expect(kept).toEqual([]);
    trieRangeNow(read, root, new Uint8Array(32), 5000);
    const gap = nodes.find(([hash]) => !kept.includes(bytesToUnprefixedHex(hash)))![0];
    const holed = (hash: Uint8Array) =>
      bytesToUnprefixedHex(hash) === bytesToUnprefixedHex(gap) ? undefined : read(hash, false);
    expect(trieRangeNow(holed, root, new Uint8Array(32), 5000)).toBeUndefined();
  });
});

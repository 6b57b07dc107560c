/**
 * The state trie's fast paths must agree with @ethereumjs/mpt exactly: batched updates (trie-batch.ts) give
 * the root the library reaches with one put/del at a time, and the path lookup finds the same values.
 */
import { randomBytes } from 'node:crypto';
import { decodeMPTNode, MerklePatriciaTrie, type MPTNode } from '@ethereumjs/mpt';
import { bytesToHex, MapDB, ValueEncoding } from '@ethereumjs/util';
import { describe, expect, it, vi } from 'vitest';
import { Lru } from '../../../src/chain/db/lru.js';
import { keccak256 } from '../../../src/chain/base/crypto.js';
import { StateTrie } from '../../../src/chain/state/state-trie.js';

const opts = (useKeyHashing = true) => ({
  db: new MapDB<string, Uint8Array>(),
  valueEncoding: ValueEncoding.Bytes,
  useKeyHashing,
  useKeyHashingFunction: keccak256,
});

/** Deterministic pseudo-random bytes so a failure can be replayed. */
function prng(seed: number) {
  let s = seed >>> 0;
  const next = () => ((s = (s * 1664525 + 1013904223) >>> 0), s);
  return (n: number) => Uint8Array.from({ length: n }, () => next() & 0xff);
}

async function batched(trie: StateTrie, ops: [Uint8Array, Uint8Array | null][]): Promise<void> {
  trie.beginBatch();
  for (const [k, v] of ops) await (v === null ? trie.del(k) : trie.put(k, v));
  await trie.commitBatch();
}

describe('StateTrie batched updates', () => {
  // Unhashed keys of mixed short lengths give inline nodes and values held by branches; hashed keys the state trie's shape.
  it('reaches the library root over rounds of inserts, updates and deletes', async () => {
    for (const [keyLengths, hashed] of [
      [[1, 2, 3], false],
      [[20], true],
    ] as const) {
      const bytes = prng(keyLengths.length * 7919);
      const keyLength = () => keyLengths[bytes(1)[0] % keyLengths.length];
      const reference = new MerklePatriciaTrie(opts(hashed));
      const fast = new StateTrie(opts(hashed), { lookups: new Lru(1000), nodes: new Lru(1000) });
      const live: Uint8Array[] = [];
      for (let round = 0; round < 6; round++) {
        const ops: [Uint8Array, Uint8Array | null][] = [];
        for (let i = 0; i < 60; i++) {
          const roll = bytes(1)[0];
          if (roll < 60 && live.length > 0)
            ops.push([live.splice(roll % live.length, 1)[0], null]); // delete
          else if (roll < 90 && live.length > 0)
            ops.push([live[roll % live.length], bytes(1 + (roll % 40))]); // update
          else if (roll < 100)
            ops.push([bytes(keyLength()), null]); // delete of a key that may be absent
          else {
            const key = bytes(keyLength());
            live.push(key);
            ops.push([key, bytes(1 + (roll % 70))]);
          }
        }
        for (const [k, v] of ops) await (v === null ? reference.del(k) : reference.put(k, v));
        await batched(fast, ops);
        expect(bytesToHex(fast.root()), `keys ${keyLengths} bytes, round ${round}`).toBe(bytesToHex(reference.root()));
      }
      for (const key of live) expect(await fast.get(key)).toEqual(await reference.get(key));
    }
  });

  it('splits an extension at each position and merges paths back on delete', async () => {
    // 0x1234 + 0x1235 share the extension [1,2,3]; the later keys split it at its last, middle and first nibble.
    const keys = [
      [0x12, 0x34],
      [0x12, 0x35],
      [0x12, 0x40],
      [0x13, 0x00],
      [0x22, 0x00],
    ].map((k) => Uint8Array.from(k));
    const reference = new MerklePatriciaTrie(opts(false));
    const fast = new StateTrie(opts(false));
    for (const key of keys) {
      await reference.put(key, Uint8Array.of(...key, 9));
      await batched(fast, [[key, Uint8Array.of(...key, 9)]]);
      expect(fast.root()).toEqual(reference.root());
    }
    for (const key of [...keys].reverse()) {
      await reference.del(key);
      await batched(fast, [[key, null]]);
      expect(fast.root()).toEqual(reference.root());
    }
  });

  it('deleting every key gives the empty root; an empty batch keeps the root', async () => {
    const fast = new StateTrie(opts());
    const keys = Array.from({ length: 50 }, () => randomBytes(20));
    await batched(
      fast,
      keys.map((k) => [k, Uint8Array.of(1, 2, 3)]),
    );
    const root = fast.root();
    await batched(fast, []);
    expect(fast.root()).toEqual(root);
    await batched(
      fast,
      keys.map((k) => [k, null]),
    );
    expect(fast.root()).toEqual(fast.EMPTY_TRIE_ROOT);
  });

  it('keeps the nodes a batch stores decoded, so the next batch decodes none of them from their encodings', async () => {
    const nodes = new Lru<string, MPTNode>(1000);
    const db = new MapDB<string, Uint8Array>();
    const fast = new StateTrie({ ...opts(), db }, { nodes });
    const keys = Array.from({ length: 40 }, (_, i) => Uint8Array.of(i, 1));
    await batched(
      fast,
      keys.map((k, i) => [k, Uint8Array.of(i, 2)]),
    );
    // Every stored node is kept, decoded exactly as the library decodes what the store holds.
    expect(db._database.size).toBeGreaterThan(10);
    for (const [hex, encoded] of db._database) expect(nodes.get(hex)?.raw()).toEqual(decodeMPTNode(encoded).raw());
    // A second batch over the same paths opens only kept nodes (none decoded from an encoding) and reaches the
    // library's root.
    const decodes = vi.spyOn(MerklePatriciaTrie.prototype, 'lookupNode');
    const changes = keys.map((k, i): [Uint8Array, Uint8Array] => [k, Uint8Array.of(i, 3)]);
    await batched(fast, changes);
    expect(decodes).not.toHaveBeenCalled();
    decodes.mockRestore();
    const reference = new MerklePatriciaTrie(opts());
    for (const [k, v] of changes) await reference.put(k, v);
    expect(fast.root()).toEqual(reference.root());
  });

  it('reads through an open batch see its pending writes', async () => {
    const fast = new StateTrie(opts());
    const key = randomBytes(20);
    await fast.put(key, Uint8Array.of(1));
    fast.beginBatch();
    await fast.put(key, Uint8Array.of(2));
    expect(await fast.get(key)).toEqual(Uint8Array.of(2));
    await fast.commitBatch();
    expect(await fast.get(key)).toEqual(Uint8Array.of(2));
  });
});

describe('StateTrie path lookup', () => {
  it('finds what the library finds, present and absent keys alike, with shared node and lookup caches', async () => {
    const caches = { lookups: new Lru<string, Uint8Array | null>(100), nodes: new Lru<string, never>(100) };
    const reference = new MerklePatriciaTrie(opts());
    const fast = new StateTrie(opts(), caches);
    const keys = Array.from({ length: 300 }, () => randomBytes(20));
    for (const [i, k] of keys.entries()) {
      await reference.put(k, Uint8Array.of(i & 0xff, 7));
      await fast.put(k, Uint8Array.of(i & 0xff, 7));
    }
    expect(fast.root()).toEqual(reference.root());
    for (const k of [...keys, ...Array.from({ length: 50 }, () => randomBytes(20))]) {
      const want = await reference.get(k);
      expect(await fast.get(k)).toEqual(want);
      expect(await fast.get(k)).toEqual(want); // memoised answer
      const [a, b] = [await fast.findPath(k), await reference.findPath(k)];
      expect(a.remaining).toEqual(b.remaining);
      expect(a.stack.length).toBe(b.stack.length);
    }
  });
});

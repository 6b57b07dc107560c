import { randomBytes } from 'node:crypto';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { describe, expect, it } from 'vitest';
import { keccak256 } from '../../../src/chain/base/crypto.js';
import { orderedTrieRoot } from '../../../src/chain/codec/ordered-trie.js';

describe('orderedTrieRoot', () => {
  it.each([0, 1, 2, 3, 16, 127, 128, 129, 300, 1000])('matches @ethereumjs/mpt for %i entries', async (n) => {
    // Mix short values (embedded nodes) with long ones (hashed nodes).
    const values = Array.from({ length: n }, (_, i) => randomBytes(i % 3 === 0 ? 4 : 1 + (i % 90)));
    const trie = new MerklePatriciaTrie();
    for (let i = 0; i < n; i++) await trie.put(RLP.encode(i), values[i]);
    expect(orderedTrieRoot(values, keccak256)).toEqual(trie.root());
  });
});

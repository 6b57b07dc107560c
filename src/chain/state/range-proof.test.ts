import {
  BranchMPTNode,
  createMerkleProof,
  createMPT,
  decodeMPTNode,
  ExtensionMPTNode,
  verifyMerkleRangeProof,
} from '@ethereumjs/mpt';
import { bytesToUnprefixedHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { keccak256 } from '../base/crypto.js';
import { RangeProofError, verifyRangeWithProof } from './range-proof.js';
import { buildRangeTrie } from '../view/snap-store.js';

const entries = Array.from({ length: 3000 }, (_, i) => ({
  key: keccak256(new Uint8Array([i & 0xff, i >> 8, 7])),
  // Short values make inline (embedded) nodes deep in the trie too.
  value: i % 3 === 0 ? new Uint8Array([i & 0x7f]) : keccak256(new Uint8Array([i & 0xff, i >> 8])),
})).sort((a, b) => Buffer.compare(a.key, b.key));

const { root, nodes: allNodes } = await buildRangeTrie(entries);
const trie = await createMPT({ useKeyHashingFunction: keccak256 });
for (const [hash, encoded] of allNodes) await trie.database().put(hash, encoded);
trie.root(root);
const inTrie = new Set(allNodes.map(([hash]) => bytesToUnprefixedHex(hash)));

async function answer(origin: Uint8Array, count: number) {
  const slice = entries.filter((e) => Buffer.compare(e.key, origin) >= 0).slice(0, count);
  const proof = [...(await createMerkleProof(trie, origin)), ...(await createMerkleProof(trie, slice.at(-1)!.key))];
  return { keys: slice.map((e) => e.key), values: slice.map((e) => e.value), proof };
}

/** The library's verdict: `more`, or the error it threw. */
async function library(origin: Uint8Array, keys: Uint8Array[], values: Uint8Array[], proof: Uint8Array[]) {
  try {
    return await verifyMerkleRangeProof(root, origin, keys.at(-1)!, keys, values, proof, keccak256);
  } catch {
    return 'rejected';
  }
}

async function ours(origin: Uint8Array, keys: Uint8Array[], values: Uint8Array[], proof: Uint8Array[]) {
  try {
    return await verifyRangeWithProof(root, origin, keys, values, proof, keccak256);
  } catch (err) {
    expect(err).toBeInstanceOf(RangeProofError);
    return 'rejected';
  }
}

/** The 32-byte references a node holds (a branch's children, an extension's child). */
function hashedChildren(encoded: Uint8Array): string[] {
  const node = decodeMPTNode(encoded);
  const refs =
    node instanceof BranchMPTNode
      ? Array.from({ length: 16 }, (_, i) => node.getBranch(i))
      : node instanceof ExtensionMPTNode
        ? [node.value()]
        : [];
  return refs.filter((r): r is Uint8Array => r instanceof Uint8Array && r.length === 32).map(bytesToUnprefixedHex);
}

const ZERO = new Uint8Array(32);
const between = (i: number) => {
  const o = Uint8Array.from(entries[i]!.key);
  o[31] = (o[31]! + 1) & 0xff; // almost surely not a key: a non-existence proof at the origin
  return o;
};

describe('verifyRangeWithProof agrees with @ethereumjs/mpt verifyMerkleRangeProof', () => {
  const cases: [string, Uint8Array, number][] = [
    ['from zero', ZERO, 500],
    ['from an existing key', entries[700]!.key, 900],
    ['from a key that is absent', between(1200), 400],
    ['one key', entries[2000]!.key, 1],
    ['to the very end', entries[2500]!.key, 1000],
    ['the whole trie', ZERO, 3000],
  ];
  for (const [name, origin, count] of cases) {
    it(`accepts a valid answer ${name}, and stores only true nodes`, async () => {
      const { keys, values, proof } = await answer(origin, count);
      const mine = await ours(origin, keys, values, proof);
      expect(mine).not.toBe('rejected');
      if (mine === 'rejected') return;
      expect(mine.more).toBe(await library(origin, keys, values, proof));
      for (const [hash] of mine.nodes) expect(inTrie.has(bytesToUnprefixedHex(hash))).toBe(true);
      // The store's invariant: a stored node's children are stored too (inline ones travel inside it).
      const stored = new Set(mine.nodes.map(([hash]) => bytesToUnprefixedHex(hash)));
      for (const [, encoded] of mine.nodes)
        for (const child of hashedChildren(encoded)) expect(stored).toContain(child);
      const rootStored = mine.nodes.some(([hash]) => Buffer.from(hash).equals(Buffer.from(root)));
      expect(rootStored).toBe(name === 'the whole trie');
      if (count > 100) expect(mine.nodes.length).toBeGreaterThan(count / 2);
    });
  }

  const tamperings: [string, (a: { keys: Uint8Array[]; values: Uint8Array[]; proof: Uint8Array[] }) => void][] = [
    ['a key left out', (a) => (a.keys.splice(100, 1), a.values.splice(100, 1))],
    ['a value changed', (a) => (a.values[50] = keccak256(a.values[50]!))],
    ['the last key left out', (a) => (a.keys.pop(), a.values.pop())],
    ['a proof node left out', (a) => a.proof.splice(a.proof.length - 1, 1)],
    ['keys out of order', (a) => ([a.keys[3], a.keys[4]] = [a.keys[4]!, a.keys[3]!])],
    ['a key added', (a) => (a.keys.splice(10, 0, between(710)), a.values.splice(10, 0, new Uint8Array([1])))],
  ];
  for (const [name, tamper] of tamperings) {
    it(`rejects an answer with ${name}, as the library does`, async () => {
      const a = await answer(entries[700]!.key, 300);
      tamper(a);
      expect(await library(entries[700]!.key, a.keys, a.values, a.proof)).toBe('rejected');
      expect(await ours(entries[700]!.key, a.keys, a.values, a.proof)).toBe('rejected');
    });
  }
});

/**
 * The mark walk reads child hashes straight out of stored node bytes: on tries with branches, extensions, leaves,
 * inline nodes (short keys and values), storage roots and code, it marks exactly the nodes @ethereumjs's own walk
 * reaches from the roots, and none of the stale nodes left beside them.
 */
import { createMPT } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex, hexToBytes, KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import { describe, expect, it } from 'vitest';
import { type MarkBatch, StateMarks } from './state-marks.js';

/** One table for every trie and code, as the state table holds them: id (hex) → bytes (the trie hands hex). */
const table = new Map<string, Uint8Array>();
const db = {
  get: async (key: string) => {
    const value = table.get(key);
    return value === undefined ? undefined : bytesToHex(value).slice(2);
  },
  put: async (key: string, value: string) => void table.set(key, hexToBytes(`0x${value}`)),
  del: async () => undefined,
  batch: async (ops: { type: string; key: string; value?: string }[]) => {
    for (const op of ops) if (op.type === 'put') table.set(op.key, hexToBytes(`0x${op.value!}`));
  },
  shallowCopy() {
    return this;
  },
  open: async () => undefined,
};
const open = () => createMPT({ db: db as never });
const bytes = (n: number, len = 1) => Uint8Array.from({ length: len }, (_, i) => (n >> (8 * i)) & 0xff);

type Items = (Uint8Array | Items)[];

/** The ids reachable from `root` by decoding every node whole (@ethereumjs's RLP; inline nodes have none). */
function reachable(root: Uint8Array, storage: boolean, into: Set<string>): void {
  const walk = (ref: Uint8Array | Items): void => {
    if (Array.isArray(ref)) return visit(ref);
    if (ref.length !== 32) return;
    const id = bytesToHex(ref).slice(2);
    into.add(id);
    visit(RLP.decode(table.get(id)!) as Items);
  };
  const visit = (node: Items): void => {
    if (node.length === 17) return node.slice(0, 16).forEach(walk);
    const path = node[0] as Uint8Array;
    if (path[0]! >> 4 < 2) return walk(node[1]!);
    if (storage) return;
    const [, , storageRoot, codeHash] = RLP.decode(node[1] as Uint8Array) as Uint8Array[];
    if (bytesToHex(storageRoot!) !== bytesToHex(KECCAK256_RLP)) reachable(storageRoot!, true, into);
    if (bytesToHex(codeHash!) !== bytesToHex(KECCAK256_NULL)) into.add(`63${bytesToHex(codeHash!).slice(2)}`);
  };
  walk(root);
}

describe('StateMarks', () => {
  it('marks exactly the nodes and codes reachable from the roots', async () => {
    const live = new Set<string>();
    const accounts = await open();
    let older = KECCAK256_RLP;
    for (let a = 0; a < 300; a++) {
      let storageRoot = KECCAK256_RLP;
      let codeHash = KECCAK256_NULL;
      if (a % 3 === 0) {
        // Short keys and values: leaves and branches under 32 bytes sit inline in their parents.
        const storage = await open();
        for (let s = 0; s < 1 + (a % 40); s++) await storage.put(bytes(s * 7 + a, 1 + (s % 3)), bytes(a + s));
        storageRoot = storage.root();
      }
      if (a % 5 === 0) {
        const code = Uint8Array.of(0x60, a & 0xff, 0x00, a >> 8);
        codeHash = keccak256(code);
        table.set(`63${bytesToHex(codeHash).slice(2)}`, code);
      }
      const value = RLP.encode([bytes(a), bytes(a * 1000, 3), storageRoot, codeHash]);
      await accounts.put(keccak256(bytes(a, 4)), value);
      // An older state root, kept too (its own nodes live); those between it and the last stale.
      if (a === 150) {
        older = accounts.root();
        reachable(older, false, live);
      }
    }
    reachable(accounts.root(), false, live);
    // The tries have inline nodes (what the walk must look into), in branches and under extensions.
    const nodes = [...table].filter(([id]) => id.length === 64).map(([, v]) => RLP.decode(v) as Items);
    const inline = nodes.filter((node) => node.some((item) => Array.isArray(item) && item.length > 0));
    expect(inline.length).toBeGreaterThan(10);
    const stale = [...table.keys()].filter((id) => !live.has(id));
    expect(stale.length).toBeGreaterThan(100);

    const marks = new StateMarks();
    marks.addRoot(accounts.root());
    // An older root sharing many nodes, and a root the table lacks (counted missing).
    marks.addRoot(older);
    marks.addRoot(new Uint8Array(32).fill(7));
    // Small batches, two out at once, each absorbed a value at a time (a deadline already past), as the pruner may.
    const out: MarkBatch[] = [];
    for (;;) {
      while (out.length < 2) {
        const batch = marks.take(7);
        if (batch.ids.length === 0) break;
        out.push(batch);
      }
      const batch = out.shift();
      if (batch === undefined) break;
      const values = batch.ids.map((id) => table.get(bytesToHex(id).slice(2)));
      for (let from = 0; from < values.length; ) from = marks.absorb(batch, values, from, 0);
    }
    for (const id of live) expect(marks.isMarked(hexToBytes(`0x${id}`)), id).toBe(true);
    for (const id of stale) expect(marks.isMarked(hexToBytes(`0x${id}`)), id).toBe(false);
    expect(marks.result.marked).toBe(live.size);
    expect(marks.result.missing).toBe(1);
  });
});

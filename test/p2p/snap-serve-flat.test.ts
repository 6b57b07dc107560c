/**
 * snap/1 answers read from the flat state (issue 39) are byte for byte the trie walk's: GetAccountRange and
 * GetStorageRanges over random origins, limits, byte bounds and page sizes, each asked once with the flat state
 * covering the root (a stand-in filled from the trie, test/chain/state/flat-double.ts) and once without it.
 */
import { bigIntToBytes, bytesToHex, setLengthLeft } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keccak256 } from '../../src/chain/base/crypto.js';
import type { Blockchain } from '../../src/chain/blockchain/blockchain.js';
import { type FlatReader, NO_FLAT_STATE } from '../../src/chain/state/flat-reader.js';
import type { TrieNodeStore } from '../../src/chain/state/trie-db.js';
import { encodeGetAccountRange, encodeGetStorageRanges, SnapCode } from '../../src/p2p/snap/messages.js';
import { SnapServer } from '../../src/p2p/snap/serve.js';
import { mine, openDevChain, signedTx, tempDir } from '../chain/engine/fixtures.js';
import { FlatDouble } from '../chain/state/flat-double.js';
import { fillerInitCode } from './snap-fixtures.js';
import { seededRandom as random } from '../helpers/seeded-random.js';

describe('snap/1 serving from the flat state', () => {
  const dir = tempDir('snap-serve-flat-');
  let chain: Blockchain;
  let nodes: TrieNodeStore;
  let flat: FlatDouble;
  /** The chain's own flat state. */
  let real: FlatReader;
  /** The state below the head, and the head's. */
  let roots: Uint8Array[];
  /** Hashed addresses of the contracts with storage, and a few without. */
  let storageHolders: Uint8Array[];

  beforeAll(async () => {
    chain = await openDevChain(dir.dir);
    nodes = (chain as unknown as { nodes: TrieNodeStore }).nodes;
    // ~216 plain accounts and 4 contracts of 60–150 slots.
    for (let block = 0; block < 2; block++) {
      const txs = [];
      for (let from = 0; from < 9; from++)
        for (let i = 0; i < 12; i++) {
          const to = setLengthLeft(bigIntToBytes(BigInt(1_000_000 + block * 1000 + from * 100 + i)), 20);
          txs.push(signedTx(chain, { from, nonce: BigInt(i), to, value: 1n }));
        }
      await mine(chain, txs);
    }
    const fills = [60, 90, 120, 150].map((slots, i) =>
      signedTx(chain, { from: 9, nonce: BigInt(i), data: fillerInitCode(slots), gasLimit: 4_000_000n }),
    );
    const b = await mine(chain, fills);
    const receipts = (await chain.getReceipts(b.block.hash()))!;
    expect(receipts.map((r) => r.status)).toEqual([1, 1, 1, 1]);
    storageHolders = receipts.map((r) => keccak256(r.contractAddress!));
    const below = chain.getHead().header.stateRoot;
    // The head changes some accounts and adds others, so the state below reads through a diff layer.
    await mine(
      chain,
      Array.from({ length: 20 }, (_, i) =>
        signedTx(chain, {
          from: i % 9,
          nonce: BigInt(2 * 12 + Math.floor(i / 9)),
          to: setLengthLeft(bigIntToBytes(BigInt(1_000_000 + (i % 2 === 0 ? i : 5000 + i))), 20),
          value: 7n,
        }),
      ),
    );
    roots = [below, chain.getHead().header.stateRoot];
    real = nodes.flat;
    for (const root of roots) expect(real.covers(root)).toBe(true);
    flat = new FlatDouble(nodes).add(roots[0]!).add(roots[1]!);
  });
  afterAll(async () => {
    await chain?.close();
    dir.remove();
  });

  /** The same request answered on the trie, from the chain's flat state and from the stand-in: the payloads. */
  async function answers(server: SnapServer, code: number, request: Uint8Array): Promise<string[]> {
    const out: string[] = [];
    try {
      for (const reader of [NO_FLAT_STATE, real, flat]) {
        nodes.flat = reader;
        out.push(bytesToHex((await server.serve(code, request))!.payload));
      }
    } finally {
      nodes.flat = real;
    }
    return out;
  }

  const hash = (next: () => number): Uint8Array => Uint8Array.from({ length: 32 }, () => Math.floor(next() * 256));

  it('answers GetAccountRange as the trie walk does', async () => {
    const next = random(39);
    const ranges = flat.ranges;
    for (let i = 0; i < 60; i++) {
      const server = new SnapServer(chain, { accountsPerPage: 1 + Math.floor(next() * 40) });
      const origin = i % 6 === 0 ? new Uint8Array(32) : hash(next);
      const limit = next() < 0.3 ? new Uint8Array(32).fill(0xff) : hash(next);
      const bytes = BigInt(1 + Math.floor(next() * (next() < 0.5 ? 500 : 20_000)));
      const root = roots[i % 2]!;
      const request = encodeGetAccountRange({ requestId: BigInt(i), root, origin, limit, bytes });
      const [onTrie, fromTable, fromDouble] = await answers(server, SnapCode.GetAccountRange, request);
      expect(fromTable, `case ${i}`).toBe(onTrie);
      expect(fromDouble, `case ${i}`).toBe(onTrie);
    }
    expect(flat.ranges).toBeGreaterThan(ranges + 60);
  });

  it('answers GetStorageRanges as the trie walk does', async () => {
    const next = random(1039);
    const ranges = flat.ranges;
    const others = [keccak256(setLengthLeft(bigIntToBytes(1_000_005n), 20)), hash(next)];
    for (let i = 0; i < 60; i++) {
      const server = new SnapServer(chain, { slotsPerPage: 1 + Math.floor(next() * 50) });
      const pool = [...storageHolders, ...others];
      const accounts = Array.from(
        { length: 1 + Math.floor(next() * 4) },
        () => pool[Math.floor(next() * pool.length)]!,
      );
      const single = accounts.length === 1 || next() < 0.3;
      const origin = single && next() < 0.7 ? hash(next) : new Uint8Array(0);
      const limit = single && next() < 0.5 ? hash(next) : new Uint8Array(0);
      const bytes = BigInt(1 + Math.floor(next() * (next() < 0.5 ? 800 : 12_000)));
      const root = roots[i % 2]!;
      const request = encodeGetStorageRanges({ requestId: BigInt(i), root, accounts, origin, limit, bytes });
      const [onTrie, fromTable, fromDouble] = await answers(server, SnapCode.GetStorageRanges, request);
      expect(fromTable, `case ${i}`).toBe(onTrie);
      expect(fromDouble, `case ${i}`).toBe(onTrie);
    }
    expect(flat.ranges).toBeGreaterThan(ranges + 30);
  });
});

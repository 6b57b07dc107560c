import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RLP } from '@ethereumjs/rlp';
import {
  Address,
  KECCAK256_RLP,
  bigIntToBytes,
  bytesToBigInt,
  bytesToHex,
  equalsBytes,
  setLengthLeft,
} from '@ethereumjs/util';
import { afterEach, describe, expect, it } from 'vitest';
import { ChainDB, WriteBatch } from '../db/chain-db.js';
import { Tag, keys } from '../db/keys.js';
import { engineNetworkOf } from '../engine/engine-adapters.js';
import { dev } from '../networks/dev.js';
import type { GenesisAccount } from '../networks/types.js';
import { evmRulesAt } from '../rules/evmRules.js';
import { openReadState } from '../state/state-view.js';
import { TrieNodeStore } from '../state/trie-db.js';
import { computeGenesisStateRoot } from './header.js';
import { buildGenesis } from './state.js';

const address = (i: number) => setLengthLeft(bigIntToBytes(BigInt(0x5a000000 + i)), 20);
const slot = (j: number) => setLengthLeft(bigIntToBytes(BigInt(j)), 32);
const alloc: GenesisAccount[] = [
  ...Array.from({ length: 400 }, (_, i) => ({ address: address(i), balance: BigInt(i + 1) * 1000n })),
  ...Array.from({ length: 6 }, (_, c) => ({
    address: address(10_000 + c),
    balance: 0n,
    nonce: 1n,
    code: Uint8Array.of(0x60, c, 0x00),
    storage: Array.from({ length: 30 }, (_, j) => [slot(j), bigIntToBytes(BigInt(c * 100 + j + 1))] as const),
  })),
];
const network = engineNetworkOf({ ...dev, genesis: { ...dev.genesis, loadAlloc: async () => alloc } });
const common = evmRulesAt(dev, 0n);

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Builds the genesis state into a fresh database (in parts when `every` is set); its root and stored node count. */
async function build(every?: number) {
  const dir = mkdtempSync(join(tmpdir(), 'genesis-spill-'));
  dirs.push(dir);
  const db = await ChainDB.open(dir);
  const store = new TrieNodeStore(db);
  let parts = 0;
  const write = async (nodes: { writeTo(b: WriteBatch): void }) => {
    const batch = new WriteBatch();
    nodes.writeTo(batch);
    await db.write(batch);
  };
  const spill =
    every === undefined ? undefined : { every, write: async (n: Parameters<typeof write>[0]) => (parts++, write(n)) };
  const { block, stateWrites } = await buildGenesis(network, common, store, spill);
  await write(stateWrites!);
  let nodes = 0;
  const it = db.keys({ gte: Uint8Array.of(Tag.state), lt: Uint8Array.of(Tag.state + 1) });
  for (let batch = await it.nextv(1000); batch.length > 0; batch = await it.nextv(1000)) nodes += batch.length;
  await it.close();
  return { root: block.header.stateRoot, nodes, parts, store, db };
}

/** Trie nodes reachable from `root`: the account trie and every storage trie under it (stored nodes, not inline). */
function reachable(db: ChainDB, root: Uint8Array): number {
  const seen = new Set<string>();
  const walk = (hash: Uint8Array, storage: boolean) => {
    const hex = bytesToHex(hash);
    if (seen.has(hex)) return;
    seen.add(hex);
    visit(RLP.decode(db.getSync(keys.state(hash))!) as RlpNode[], storage);
  };
  const visit = (node: RlpNode[], storage: boolean): void => {
    const child = (c: RlpNode) => {
      if (c instanceof Uint8Array) {
        if (c.length === 32) walk(c, storage);
      } else if (c.length > 0) visit(c, storage);
    };
    if (node.length === 17) for (let i = 0; i < 16; i++) child(node[i]!);
    else if ((node[0] as Uint8Array)[0]! >> 4 < 2) child(node[1]!);
    else if (!storage) {
      const storageRoot = (RLP.decode(node[1] as Uint8Array) as Uint8Array[])[2]!;
      if (!equalsBytes(storageRoot, KECCAK256_RLP)) walk(storageRoot, true);
    }
  };
  walk(root, false);
  return seen.size;
}
type RlpNode = Uint8Array | RlpNode[];

describe('buildGenesis in parts', () => {
  it('gives the same state as one build, every account and slot readable, with few leftover nodes', async () => {
    const whole = await build();
    const inParts = await build(60);
    expect(bytesToHex(whole.root)).toBe(bytesToHex(await computeGenesisStateRoot(alloc)));
    expect(bytesToHex(inParts.root)).toBe(bytesToHex(whole.root));
    expect(inParts.parts).toBeGreaterThan(5);
    // Built whole, the database holds the state's nodes and nothing else (contract code aside).
    expect(whole.nodes - reachable(whole.db, whole.root)).toBe(6);
    // Inserting in hashed-address order leaves only the right edge of each part behind (a few nodes per part).
    expect(inParts.nodes - whole.nodes).toBeLessThanOrEqual(inParts.parts * 8);

    const fresh = new TrieNodeStore(inParts.db);
    const state = openReadState(fresh, common, inParts.root);
    for (const a of alloc) {
      const account = await state.getAccount(new Address(a.address));
      expect(account?.balance).toBe(a.balance);
      for (const [key, value] of a.storage ?? [])
        expect(bytesToBigInt(await state.getStorage(new Address(a.address), key))).toBe(bytesToBigInt(value));
    }
    await whole.db.close();
    await inParts.db.close();
  });
});

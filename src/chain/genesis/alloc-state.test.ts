import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Account, Address, bytesToHex, KECCAK256_RLP, unpadBytes } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainDB } from '../db/chain-db.js';
import { dev } from '../networks/dev.js';
import { etc } from '../networks/etc.js';
import { mordor } from '../networks/mordor.js';
import type { GenesisAccount } from '../networks/types.js';
import { evmRulesAt } from '../rules/evmRules.js';
import { storageRootOf, walkRoot } from '../state/flat-table.js';
import { openState } from '../state/state-view.js';
import { TrieWalker } from '../state/trie-walk.js';
import { TrieNodeStore } from '../state/trie-db.js';
import { buildAllocState } from './alloc-state.js';
import { computeGenesisStateRoot } from './header.js';

let dir: string;
let db: ChainDB;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'alloc-state-'));
  db = await ChainDB.open(dir);
});
afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The allocation through the state manager, one account at a time (the genesis build before the sorted one). */
async function throughStateManager(alloc: readonly GenesisAccount[]) {
  const { stateManager, buffer } = openState(new TrieNodeStore(db), evmRulesAt(dev, 0n), KECCAK256_RLP);
  for (const acct of alloc) {
    const addr = new Address(acct.address);
    const slots = (acct.storage ?? []).map(([key, value]) => [key, unpadBytes(value)] as const);
    const storageRoot = slots.length === 0 ? KECCAK256_RLP : await stateManager.writeSlots(addr, KECCAK256_RLP, slots);
    await stateManager.putAccount(addr, new Account(acct.nonce ?? 0n, acct.balance, storageRoot));
    if (acct.code !== undefined && acct.code.length > 0) await stateManager.putCode(addr, acct.code);
  }
  return { root: await stateManager.getStateRoot(), nodes: buffer.pending };
}

/** Every account and slot leaf of the trie at `root`, read from `nodes`, as hashed-key hex → leaf value hex. */
function leavesOf(root: Uint8Array, nodes: Map<string, Uint8Array>): Map<string, string> {
  const walker = new TrieWalker((hash) => nodes.get(Buffer.from(hash).toString('hex')));
  const leaves = new Map<string, string>();
  walker.diff(walkRoot(KECCAK256_RLP), walkRoot(root), (account, _before, after) => {
    leaves.set(bytesToHex(account), bytesToHex(after!));
    walker.diff(walkRoot(KECCAK256_RLP), storageRootOf(after), (slot, _b, value) =>
      leaves.set(bytesToHex(account) + bytesToHex(slot).slice(2), bytesToHex(value!)),
    );
  });
  return leaves;
}

/** Deterministic bytes, so a failure repeats. */
function pseudoRandom(seed: number) {
  let x = seed;
  const byte = () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x >>> 24;
  };
  return (n: number) => Uint8Array.from({ length: n }, byte);
}

function randomAlloc(): GenesisAccount[] {
  const bytes = pseudoRandom(41);
  const alloc: GenesisAccount[] = Array.from({ length: 300 }, (_, i) => ({
    address: bytes(20),
    balance: BigInt(i % 7 === 0 ? 0 : i * 1_000_003),
    ...(i % 5 === 0 ? { nonce: BigInt(i) } : {}),
    ...(i % 9 === 0 ? { code: bytes(1 + (i % 40)) } : {}),
    ...(i % 11 === 0
      ? {
          storage: Array.from(
            { length: 1 + (i % 23) },
            (_, j) => [bytes(32), j % 6 === 0 ? new Uint8Array(32) : bytes(1 + (j % 32))] as const,
          ),
        }
      : {}),
  }));
  // A repeated address keeps its last entry, as the state manager's writes in order do.
  alloc.push({ ...alloc[3]!, balance: 77n });
  return alloc;
}

describe('buildAllocState (sorted trie) against the state manager', () => {
  const cases: [string, () => Promise<readonly GenesisAccount[]>][] = [
    ['etc', etc.genesis.loadAlloc],
    ['mordor', mordor.genesis.loadAlloc],
    ['dev', dev.genesis.loadAlloc],
    ['random alloc with code and storage', async () => randomAlloc()],
  ];
  for (const [name, load] of cases) {
    it(`${name}: same root, same stored nodes and code, flat rows equal to the trie's leaves`, async () => {
      const alloc = await load();
      const nodes = new Map<string, Uint8Array>();
      const built = buildAllocState(alloc, nodes);
      const reference = await throughStateManager(alloc);
      expect(bytesToHex(built.stateRoot)).toBe(bytesToHex(reference.root));
      expect(bytesToHex(built.stateRoot)).toBe(bytesToHex(await computeGenesisStateRoot(alloc)));
      const hexed = (m: Map<string, Uint8Array>) => new Map([...m].map(([k, v]) => [k, bytesToHex(v)]));
      expect(hexed(nodes)).toEqual(hexed(reference.nodes));

      const listed = new Map<string, string>();
      for (const account of built.flatChanges.accounts) {
        listed.set(bytesToHex(account.hashedKey), bytesToHex(account.after!));
        for (const slot of account.slots)
          listed.set(bytesToHex(account.hashedKey) + bytesToHex(slot.hashedKey).slice(2), bytesToHex(slot.after!));
      }
      expect(listed).toEqual(leavesOf(built.stateRoot, nodes));
      expect(bytesToHex(built.flatChanges.toRoot)).toBe(bytesToHex(built.stateRoot));
    });
  }
});

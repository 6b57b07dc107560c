import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Account, Address, KECCAK256_RLP, bytesToHex, createAccountFromRLP, setLengthLeft } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keccak256 } from '../base/crypto.js';
import { ChainDB } from '../db/chain-db.js';
import type { FlatChanges } from '../db/flat-changes.js';
import { SharedCommons } from '../exec/commons.js';
import { etcEngineRules } from '../engine/engine-adapters.js';
import { getNetwork } from '../networks/index.js';
import { openState } from './state-view.js';
import { TrieNodeStore } from './trie-db.js';

const common = new SharedCommons(etcEngineRules(getNetwork('dev'))).commonAt(1n);
const coinbase = new Address(setLengthLeft(Uint8Array.of(0xc0), 20));
const other = new Address(setLengthLeft(Uint8Array.of(0x0e), 20));

let dir: string;
let db: ChainDB;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-node-kept-changes-'));
  db = await ChainDB.open(join(dir, 'chaindata'));
});
afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Each listed account as `address-hash: before → after` (balances; '-' for absent). */
function listed(changes: FlatChanges | undefined): string[] | undefined {
  if (changes === undefined) return undefined;
  const balance = (leaf: Uint8Array | null) => (leaf === null ? '-' : createAccountFromRLP(leaf).balance.toString());
  return changes.accounts.map((a) => `${bytesToHex(a.hashedKey)}: ${balance(a.before)} → ${balance(a.after)}`);
}

describe('flat-state change list on a state kept from block to block', () => {
  it("lists each written account's value at the parent root from the kept cache, with no flat state to ask", async () => {
    // No flat state covers any root here: every before value must come from the state manager itself.
    const { stateManager: sm } = openState(new TrieNodeStore(db), common, KECCAK256_RLP);
    const credit = async (address: Address, amount: bigint) => {
      const account = (await sm.getAccount(address)) ?? new Account();
      account.balance += amount;
      await sm.putAccount(address, account);
    };
    const block = async (from: Uint8Array, run: () => Promise<void>) => {
      sm.beginFlatChanges(from);
      await sm.checkpoint();
      await run();
      await sm.commit();
      const root = await sm.getStateRoot();
      return { root, changes: sm.takeFlatChanges(root) };
    };
    const h = (a: Address) => bytesToHex(keccak256(a.bytes));

    const first = await block(KECCAK256_RLP, () => credit(coinbase, 5n));
    expect(listed(first.changes)).toEqual([`${h(coinbase)}: - → 5`]);
    // The next block on the same state: the coinbase is cached (never read from a flat state), the other is new.
    const second = await block(first.root, async () => {
      await credit(coinbase, 2n);
      await credit(other, 1n);
      await credit(coinbase, 3n);
    });
    expect(second.changes?.fromRoot).toEqual(first.root);
    expect(listed(second.changes)?.sort()).toEqual([`${h(coinbase)}: 5 → 10`, `${h(other)}: - → 1`].sort());
    // A block that reverts its write of the account still lists the parent's value as its before.
    const third = await block(second.root, async () => {
      await sm.checkpoint();
      await credit(coinbase, 100n);
      await sm.revert();
      await credit(coinbase, 1n);
    });
    expect(listed(third.changes)).toEqual([`${h(coinbase)}: 10 → 11`]);
  });
});

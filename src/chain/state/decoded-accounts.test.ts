import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Caches, CacheType, MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, KECCAK256_RLP, bytesToHex, setLengthLeft } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keccak256 } from '../base/crypto.js';
import { ChainDB } from '../db/chain-db.js';
import { SharedCommons } from '../exec/commons.js';
import { etcEngineRules } from '../engine/engine-adapters.js';
import { getNetwork } from '../networks/index.js';
import { openState } from './state-view.js';
import { TrieNodeStore } from './trie-db.js';

const common = new SharedCommons(etcEngineRules(getNetwork('dev'))).commonAt(1n);
const addresses = Array.from({ length: 6 }, (_, i) => new Address(setLengthLeft(Uint8Array.of(i + 1), 20)));

/** A small deterministic generator (xorshift), so a failure replays. */
function random(seed: number): (n: number) => number {
  let x = seed;
  return (n) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}

const shown = (a: Account | undefined) =>
  a === undefined
    ? 'absent'
    : `${a.nonce}/${a.balance}/${bytesToHex(a.storageRoot)}/${bytesToHex(a.codeHash)}/${a.isContract()}/${bytesToHex(a.serialize())}`;

let dir: string;
let db: ChainDB;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-node-decoded-accounts-'));
  db = await ChainDB.open(join(dir, 'chaindata'));
});
afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('decoded account cache', () => {
  it('answers every account and code read and state root as the library state manager over random writes, checkpoints and reverts', async () => {
    for (let seed = 1; seed <= 30; seed++) {
      const next = random(seed * 7919);
      const ours = openState(new TrieNodeStore(db), common, KECCAK256_RLP).stateManager;
      const lib = new MerkleStateManager({
        common,
        caches: new Caches({
          account: { type: CacheType.ORDERED_MAP },
          storage: { type: CacheType.ORDERED_MAP },
          code: { type: CacheType.ORDERED_MAP },
        }),
      });
      let depth = 0;
      for (let step = 0; step < 300; step++) {
        const address = addresses[next(addresses.length)]!;
        const op = next(12);
        const where = `seed ${seed}, step ${step}, op ${op}`;
        if (op <= 2) {
          const [a, b] = [await ours.getAccount(address), await lib.getAccount(address)];
          expect(shown(a), where).toBe(shown(b));
          // The caller may change what it read: the cache must not see it.
          if (a !== undefined) a.balance += 1n;
          if (b !== undefined) b.balance += 1n;
        } else if (op <= 4) {
          const account = new Account(
            BigInt(next(5)),
            BigInt(next(1000)),
            next(3) === 0 ? keccak256(Uint8Array.of(next(9))) : KECCAK256_RLP,
            next(3) === 0 ? keccak256(Uint8Array.of(next(9), 1)) : undefined,
          );
          if (next(4) === 0) account.codeSize = 77;
          await ours.putAccount(address, account);
          await lib.putAccount(address, account);
          // Nor what it put, changed after the put.
          account.nonce += 3n;
        } else if (op === 5) {
          await ours.deleteAccount(address);
          await lib.deleteAccount(address);
        } else if (op === 6) {
          const balance = BigInt(next(50));
          await ours.modifyAccountFields(address, { balance });
          await lib.modifyAccountFields(address, { balance });
        } else if (op === 7) {
          await Promise.all([ours.checkpoint(), lib.checkpoint()]);
          depth++;
        } else if (op === 8 && depth > 0) {
          await Promise.all([ours.revert(), lib.revert()]);
          depth--;
        } else if (op === 9 && depth > 0) {
          await Promise.all([ours.commit(), lib.commit()]);
          depth--;
        } else if (op === 10) {
          const code = Uint8Array.of(0x60, next(4), 0x00);
          await ours.putCode(address, code);
          await lib.putCode(address, code);
        } else if (op === 11) {
          expect(bytesToHex(await ours.getCode(address)), where).toBe(bytesToHex(await lib.getCode(address)));
        } else if (depth === 0) {
          expect(bytesToHex(await ours.getStateRoot()), where).toBe(bytesToHex(await lib.getStateRoot()));
          // Reads after this miss the caches (as a replay's first reads on a state opened fresh do).
          if (next(2) === 0) {
            ours.clearCaches();
            lib.clearCaches();
          }
        }
      }
      while (depth-- > 0) await Promise.all([ours.commit(), lib.commit()]);
      expect(bytesToHex(await ours.getStateRoot())).toBe(bytesToHex(await lib.getStateRoot()));
    }
  });
});

/**
 * A state whose checkpoints cover its caches only (ChainStateManager.checkpointCachesOnly, what trace replays open)
 * answers as the library's checkpoints do: the same random runs of writes, checkpoints, commits and reverts on two
 * states over the dev chain's head state, one each way, give the same reads after every step and the same state
 * root once the last checkpoint is gone (the flush then writes the trie).
 */
import { Account, Address, bigIntToBytes, bytesToHex, setLengthLeft } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { type OpenedState, openState } from '../../../src/chain/state/state-view.js';
import type { TrieNodeStore } from '../../../src/chain/state/trie-db.js';
import { addresses, deployCounter, openDevChain, tempDir } from '../engine/fixtures.js';
import { seededRandom } from '../../helpers/seeded-random.js';

/** A small deterministic generator (mulberry32): each seed replays the same run. */

describe('checkpoints of the caches only', () => {
  let dir: ReturnType<typeof tempDir>;
  let chain: Blockchain;
  let nodes: TrieNodeStore;
  let contract: Uint8Array;

  beforeAll(async () => {
    dir = tempDir('caches-only-');
    chain = await openDevChain(dir.dir);
    contract = await deployCounter(chain);
    nodes = (chain as unknown as { nodes: TrieNodeStore }).nodes;
  });
  afterAll(async () => {
    await chain.close();
    dir.remove();
  });

  const open = (cachesOnly: boolean): OpenedState => {
    const head = chain.getHead();
    const opened = openState(nodes, chain.commonAt(head.header.number), head.header.stateRoot, nodes.trieCaches, null);
    if (cachesOnly) opened.stateManager.checkpointCachesOnly();
    return opened;
  };

  /** Everything a run may have touched, as text: accounts, the contract's first slots, its code. */
  async function reads(state: OpenedState, touched: readonly Address[]): Promise<string> {
    const sm = state.stateManager;
    const out: string[] = [];
    for (const address of touched) {
      const account = await sm.getAccount(address);
      out.push(account === undefined ? 'none' : bytesToHex(account.serialize()));
    }
    const at = new Address(contract);
    if ((await sm.getAccount(at)) !== undefined) {
      for (let slot = 0; slot < 4; slot++)
        out.push(bytesToHex(await sm.getStorage(at, setLengthLeft(bigIntToBytes(BigInt(slot)), 32))));
    }
    out.push(bytesToHex(await sm.getCode(at)));
    return out.join(',');
  }

  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`gives the library's reads and root (seed ${seed})`, async () => {
      const states = [open(false), open(true)];
      const touched = [...addresses.slice(0, 3).map((a) => new Address(a)), new Address(contract)];
      const next = seededRandom(seed);
      let depth = 0;
      for (let step = 0; step < 120; step++) {
        const r = next();
        const address = touched[Math.floor(next() * touched.length)]!;
        const value = BigInt(Math.floor(next() * 1000));
        for (const { stateManager: sm } of states) {
          if (r < 0.2) {
            await sm.checkpoint();
          } else if (r < 0.3 && depth > 0) {
            await sm.commit();
          } else if (r < 0.4 && depth > 0) {
            await sm.revert();
          } else if (r < 0.6) {
            const account = (await sm.getAccount(address)) ?? new Account();
            account.balance = value;
            account.nonce += 1n;
            await sm.putAccount(address, account);
          } else if (r < 0.85) {
            const target = new Address(contract);
            if ((await sm.getAccount(target)) !== undefined)
              await sm.putStorage(target, setLengthLeft(bigIntToBytes(value % 4n), 32), bigIntToBytes(value + 1n));
          } else if (r < 0.9) {
            await sm.deleteAccount(address);
          } else {
            await sm.putCode(address, Uint8Array.of(0x60, Number(value % 256n), 0x00));
          }
        }
        if (r < 0.2) depth++;
        else if (r < 0.4 && depth > 0) depth--;
        expect(await reads(states[1]!, touched)).toBe(await reads(states[0]!, touched));
      }
      for (; depth > 0; depth--) for (const { stateManager: sm } of states) await sm.commit();
      // Writes made with no checkpoint open wait in the caches until one closes: one more, to flush them.
      for (const { stateManager: sm } of states) {
        await sm.checkpoint();
        await sm.commit();
      }
      const [library, cachesOnly] = await Promise.all(states.map((s) => s.stateManager.getStateRoot()));
      expect(bytesToHex(cachesOnly!)).toBe(bytesToHex(library!));
      expect(await reads(states[1]!, touched)).toBe(await reads(states[0]!, touched));
    });
  }
});

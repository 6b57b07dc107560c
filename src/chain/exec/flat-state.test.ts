import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBlock } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import { createLegacyTx } from '@ethereumjs/tx';
import {
  Account,
  Address,
  KECCAK256_RLP,
  bigIntToBytes,
  bytesToHex,
  concatBytes,
  hexToBytes,
  setLengthLeft,
} from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedCommons } from './commons.js';
import { ChainDB, WriteBatch } from '../db/chain-db.js';
import { etcEngineRules } from '../engine/engine-adapters.js';
import { DEV_ACCOUNTS, getNetwork } from '../networks/index.js';
import { type OpenedState, openReadState, openState } from '../state/state-view.js';
import { TrieNodeStore } from '../state/trie-db.js';
import { BlockRunner } from './block-runner.js';
import { flatStateOver } from './flat-state.js';

const rules = etcEngineRules(getNetwork('dev'));
const common: Common = new SharedCommons(rules).commonAt(1n);
const keys = DEV_ACCOUNTS.slice(0, 3).map((a) => hexToBytes(a.privateKey as `0x${string}`));
const senders = DEV_ACCOUNTS.slice(0, 3).map((a) => hexToBytes(a.address as `0x${string}`));
const at = (n: number) => setLengthLeft(bigIntToBytes(BigInt(n)), 20);
const coinbase = at(0xc0ffee);

// Hand-assembled contracts (calldata words: 0 = value or address, 1 = slot).
/** SSTORE(slot = word 1, value = word 0). */
const WRITER = hexToBytes('0x6000356020355500');
/** The same write, then REVERT. */
const REVERTER = hexToBytes('0x6000356020355560006000fd');
/** SSTORE(0, 1), CALL(address = word 0) with nothing, SSTORE(1, the call's success). */
const CALLER = hexToBytes('0x6001600055600060006000600060006000355af160015500');
/** SELFDESTRUCT to the address in word 0. */
const DESTRUCT = hexToBytes('0x600035ff');
/** Init code: SSTORE(1, 0x2a), then return WRITER as the runtime code. */
const CREATE_WRITER = concatBytes(hexToBytes('0x602a60015567'), WRITER, hexToBytes('0x60005260086018f3'));

const writers = [at(0x1001), at(0x1002)];
const reverter = at(0x2001);
const caller = at(0x3001);
const destructs = [at(0x4001), at(0x4002), at(0x4003)];
/** Existing empty accounts: a transaction that touches one deletes it (EIP-161, in ETC since Atlantis). */
const empties = [at(0x5001), at(0x5002), at(0x5003)];
const fresh = [at(0x6001), at(0x6002)];

let dir: string;
let db: ChainDB;
let store: TrieNodeStore;
let genesisRoot: Uint8Array;
let genesisNodes: Set<string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-node-flat-state-'));
  db = await ChainDB.open(join(dir, 'chaindata'));
  store = new TrieNodeStore(db);
  const { stateManager: sm, buffer } = openState(store, common, KECCAK256_RLP);
  await sm.checkpoint();
  for (const s of senders) await sm.putAccount(new Address(s), new Account(0n, 10n ** 24n));
  const contracts: [Uint8Array, Uint8Array][] = [
    ...writers.map((w) => [w, WRITER] as [Uint8Array, Uint8Array]),
    [reverter, REVERTER],
    [caller, CALLER],
    ...destructs.map((d) => [d, DESTRUCT] as [Uint8Array, Uint8Array]),
  ];
  for (const [address, code] of contracts) {
    await sm.putAccount(new Address(address), new Account(1n, 5n));
    await sm.putCode(new Address(address), code);
    for (let slot = 0; slot < 4; slot++)
      await sm.putStorage(new Address(address), setLengthLeft(Uint8Array.of(slot), 32), Uint8Array.of(slot + 7));
  }
  for (const e of empties) await sm.putAccount(new Address(e), new Account());
  await sm.commit();
  genesisRoot = await sm.getStateRoot();
  const batch = new WriteBatch();
  buffer.writeTo(batch);
  await db.write(batch);
  genesisNodes = new Set(buffer.pending.keys());
});

afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A small deterministic generator, so a failing sequence can be run again. */
function random(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

const word = (n: bigint | Uint8Array) => setLengthLeft(typeof n === 'bigint' ? bigIntToBytes(n) : n, 32);
const noAncestors: EVMMockBlockchainInterface = {
  getBlock: async () => {
    throw new Error('no ancestors in this test');
  },
  putBlock: async () => {},
  shallowCopy: () => noAncestors,
};

describe('FlatState', () => {
  it('gives the same state roots, receipts and gas as the state manager over random blocks', async () => {
    const pick = random(28);
    const nonces = senders.map(() => 0n);
    const created: Uint8Array[] = [];
    let plainState: OpenedState | undefined;
    let flatState: OpenedState | undefined;
    let parentRoot = genesisRoot;
    const kinds = new Set<string>();
    for (let number = 1n; number <= 12n; number++) {
      const envBlock = createBlock(
        { header: { number, coinbase, gasLimit: 30_000_000n, timestamp: 1000n + number, difficulty: 1n } },
        { common },
      );
      const start = (flat: boolean, state: OpenedState | undefined) =>
        BlockRunner.start({
          store,
          common,
          parentStateRoot: parentRoot,
          envBlock,
          ancestors: noAncestors,
          flat,
          ...(state !== undefined ? { state } : {}),
        });
      const plain = await start(false, plainState);
      const flat = await start(true, flatState);
      for (let i = 0; i < 3 + pick(8); i++) {
        const from = i < 2 ? 0 : pick(senders.length);
        const tx = (to: Uint8Array | undefined, data: Uint8Array, value = 0n) =>
          createLegacyTx(
            {
              nonce: nonces[from]!,
              ...(to !== undefined ? { to } : {}),
              value,
              data,
              gasLimit: 300_000n,
              gasPrice: 10n ** 9n,
            },
            { common },
          ).sign(keys[from]!);
        const kind = pick(9);
        const targets = [...empties, ...fresh, ...destructs, ...senders, ...created];
        // Each block starts with a self-destruct and a payment to the account just destroyed: it comes back without
        // its storage.
        const destroyed = destructs[Number(number) % destructs.length]!;
        const candidate =
          i === 0
            ? tx(destroyed, word(senders[1]!))
            : i === 1
              ? tx(destroyed, new Uint8Array(), 1n)
              : kind === 0
                ? tx(targets[pick(targets.length)], new Uint8Array(), BigInt(pick(3)) * 10n ** 15n)
                : kind === 1
                  ? tx(empties[pick(empties.length)], new Uint8Array())
                  : kind === 2 || kind === 3
                    ? tx(
                        [...writers, ...created][pick(writers.length + created.length)],
                        concatBytes(word(BigInt(pick(3))), word(BigInt(pick(6)))),
                      )
                    : kind === 4
                      ? tx(reverter, concatBytes(word(5n), word(BigInt(pick(4)))))
                      : kind === 5
                        ? tx(caller, word(pick(2) === 0 ? reverter : writers[0]!))
                        : kind === 6
                          ? tx(destructs[pick(destructs.length)], word(targets[pick(targets.length)]!))
                          : kind === 7
                            ? tx(undefined, CREATE_WRITER)
                            : tx(senders[pick(senders.length)], new Uint8Array(), 1n);
        const a = await plain.apply(candidate);
        const b = await flat.apply(candidate);
        expect(b.ok).toBe(a.ok);
        if (!a.ok || !b.ok) continue;
        kinds.add(String(kind));
        expect(b.receipt).toEqual(a.receipt);
        nonces[from]! += 1n;
        if (a.receipt.contractAddress !== undefined) created.push(a.receipt.contractAddress);
      }
      const rewards = rules.rewards(envBlock.header, []);
      const want = await plain.finish(rewards);
      const have = await flat.finish(rewards);
      expect(bytesToHex(have.stateRoot), `block ${number}`).toBe(bytesToHex(want.stateRoot));
      expect(have.receiptsRoot).toEqual(want.receiptsRoot);
      expect(have.gasUsed).toBe(want.gasUsed);
      // No new node the current path would not store (a write taken back may store an unchanged node again).
      const stored = want.stateWrites.pending;
      const extra = [...have.stateWrites.pending.keys()].filter((k) => !stored.has(k) && !genesisNodes.has(k));
      expect(extra).toEqual([]);
      plainState = want.state;
      flatState = have.state;
      parentRoot = want.stateRoot;
    }
    // Every kind of transaction applied at least once (else the seed above no longer tests them all).
    expect([...kinds].sort()).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8']);
    // The flat path's nodes alone hold the whole final state: read back through a fresh store, it is the same.
    const batch = new WriteBatch();
    flatState!.buffer.writeTo(batch);
    await db.write(batch);
    const reread = openReadState(new TrieNodeStore(db), common, parentRoot);
    const known = plainState!.stateManager;
    const everyone = [...senders, ...writers, reverter, caller, ...destructs, ...empties, ...fresh, ...created];
    for (const address of everyone.map((a) => new Address(a))) {
      expect((await reread.getAccount(address))?.serialize()).toEqual((await known.getAccount(address))?.serialize());
      expect(await reread.getCode(address)).toEqual(await known.getCode(address));
      for (let slot = 0; slot < 6; slot++) {
        const key = setLengthLeft(Uint8Array.of(slot), 32);
        expect(await reread.getStorage(address, key)).toEqual(await known.getStorage(address, key));
      }
    }
  });
  it('takes a storage cleared on its own into the root, and a clear taken back out of it', async () => {
    const plain = openState(store, common, genesisRoot).stateManager;
    const flat = flatStateOver(openState(store, common, genesisRoot).stateManager);
    const both = async (step: (sm: typeof plain | typeof flat) => Promise<void>) => {
      await step(plain);
      await step(flat);
    };
    const expectSameRoot = async () =>
      expect(bytesToHex(await flat.getStateRoot())).toBe(bytesToHex(await plain.getStateRoot()));
    // A clear with no other change to the account (the root walks the cleared storages too).
    await both(async (sm) => {
      await sm.checkpoint();
      await sm.clearStorage(new Address(writers[0]!));
      await sm.commit();
    });
    await expectSameRoot();
    // A clear taken back: the storage stays as it was; one taken back inside another stays cleared.
    await both(async (sm) => {
      await sm.checkpoint();
      await sm.checkpoint();
      await sm.clearStorage(new Address(writers[1]!));
      await sm.revert();
      await sm.clearStorage(new Address(reverter));
      await sm.checkpoint();
      await sm.clearStorage(new Address(reverter));
      await sm.revert();
      await sm.commit();
    });
    await expectSameRoot();
    const slot = setLengthLeft(Uint8Array.of(1), 32);
    expect(await flat.getStorage(new Address(writers[1]!), slot)).toEqual(Uint8Array.of(8));
    expect(await flat.getStorage(new Address(reverter), slot)).toEqual(new Uint8Array(0));
  });
});

/**
 * The dev miner's blocks continue on the state (and VM) the previous block finished on (assembly/warm-state.ts). The
 * result must be the cold path's: the same transactions mined with a freshly opened state per block give the same
 * block hashes, state roots and receipts, a chain importing the blocks (full validation, cold execution) accepts
 * them, and any other head change (rewind, a block imported from elsewhere) makes the next block start from the
 * head's own state.
 */
import { Address, bytesToBigInt, bytesToHex } from '@ethereumjs/util';
import type { TypedTransaction } from '@ethereumjs/tx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WarmState } from '../../../src/chain/exec/warm-state.js';
import type { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import type { StateView } from '../../../src/chain/state/state-reader.js';
import type { ChainStateManager } from '../../../src/chain/state/state-view.js';
import { flatStateIfAny } from '../../../src/chain/exec/flat-state.js';
import { addresses, mine, openDevChain, signedTx, tempDir } from './fixtures.js';

const COINBASE = new Uint8Array(20).fill(0xcb);
// Runtime: sstore(number, blockhash(number - 1)); sstore(0, sload(0) + 1); log0(calldata).
const RUNTIME = '436001900340435560005460010160005536600060003736600060a000';
const INIT = Uint8Array.from(Buffer.from(`601c600c600039601c6000f3${RUNTIME}`, 'hex'));

const dirs = [tempDir('warm-a-'), tempDir('warm-b-'), tempDir('warm-c-')];
/** Mines with the warm state, on the flat state over it as the dev node does. */
let warm: Blockchain;
/** Mines the same transactions with a fresh state per block. */
let cold: Blockchain;
/** Imports `warm`'s blocks: validated, executed on freshly opened state. */
let replica: Blockchain;
let contract: Uint8Array;
const nonces = new Map<number, bigint>();

const warmStateOf = (chain: Blockchain) => (chain as unknown as { warm: WarmState }).warm;
const isWarm = (chain: Blockchain) => warmStateOf(chain).hash !== undefined;
/** The block whose post-state the warm state is. */
const warmHash = (chain: Blockchain) => warmStateOf(chain).hash;
const dropWarm = (chain: Blockchain) => warmStateOf(chain).drop();
/** The flat state over the kept state, if the miner made one. */
const flatOf = (chain: Blockchain) => {
  const kept = (warmStateOf(chain) as unknown as { warm?: { state: { stateManager: ChainStateManager } } }).warm;
  return kept === undefined ? undefined : flatStateIfAny(kept.state.stateManager);
};
const next = (from: number) => {
  const n = nonces.get(from) ?? 0n;
  nonces.set(from, n + 1n);
  return n;
};

beforeAll(async () => {
  [warm, cold, replica] = await Promise.all(dirs.map((d, i) => openDevChain(d.dir, { flatState: i === 0 })));
});

afterAll(async () => {
  await Promise.all([warm, cold, replica].map((c) => c?.close()));
  for (const d of dirs) d.remove();
});

/** Mines `make()` (built per chain) on `warm` and `cold` with the same timestamp; checks both ways agree and the replica imports it. */
async function mineBoth(make: (chain: Blockchain) => TypedTransaction[]) {
  const timestamp = warm.getHead().header.timestamp + 13n;
  const a = await mine(warm, make(warm), { coinbase: COINBASE, timestamp });
  dropWarm(cold);
  const b = await mine(cold, make(cold), { coinbase: COINBASE, timestamp });
  expect(a.result.status).toBe('head');
  expect(b.block.hash()).toEqual(a.block.hash());
  expect(b.block.header.stateRoot).toEqual(a.block.header.stateRoot);
  expect(await warm.getReceipts(a.block.hash())).toEqual(await cold.getReceipts(b.block.hash()));
  expect(a.assembled.rejected.map((r) => r.reason)).toEqual(b.assembled.rejected.map((r) => r.reason));
  const imported = await replica.importBlock(replica.decodeBlock(a.block.serialize()));
  expect(imported.status).toBe('head');
  expect(await replica.getReceipts(a.block.hash())).toEqual(await warm.getReceipts(a.block.hash()));
  return a;
}

describe('mining on the warm state', () => {
  it('gives the cold path blocks, state roots and receipts over consecutive blocks', async () => {
    const first = await mineBoth((c) => [signedTx(c, { from: 0, nonce: 0n, data: INIT, gasLimit: 200_000n })]);
    nonces.set(0, 1n);
    contract = first.assembled.receipts[0].contractAddress!;
    expect(isWarm(warm)).toBe(true);
    for (let i = 0; i < 6; i++) {
      const m = await mineBoth((c) => {
        const txs = [
          signedTx(c, {
            from: 1,
            nonce: nonces.get(1) ?? 0n,
            to: contract,
            data: Uint8Array.of(i, 1),
            gasLimit: 100_000n,
          }),
          signedTx(c, { from: 2, nonce: nonces.get(2) ?? 0n, to: addresses[3], value: 1000n + BigInt(i) }),
          signedTx(c, { from: 3, nonce: 99n, to: contract, gasLimit: 100_000n }), // wrong nonce: rejected, state untouched
        ];
        return txs;
      });
      next(1);
      next(2);
      expect(m.assembled.transactions).toHaveLength(2);
      expect(isWarm(warm)).toBe(true);
    }
    // The contract saw every block's parent hash (BLOCKHASH through the reused VM) and counted 6 calls.
    const state = (await warm.stateAt('latest'))!;
    const head = warm.getHead();
    expect(bytesToBigInt(await state.getStorageAt(contract, Uint8Array.of(0)))).toBe(6n);
    expect(await state.getStorageAt(contract, Uint8Array.of(Number(head.header.number)))).toEqual(
      head.header.parentHash,
    );
  });

  it('carries the warm state past empty blocks built in bulk (two chunks), and the next blocks are the cold path’s', async () => {
    expect(isWarm(warm)).toBe(true);
    const flatBefore = flatOf(warm);
    expect(flatBefore).toBeDefined();
    const start = warm.getHead().header.timestamp;
    const bulk = (chain: Blockchain) => {
      let next = 0n;
      return chain.extendHead({
        count: 502,
        coinbase: COINBASE,
        timestamp: () => start + 1n + next++,
        seal: async (assembled) => assembled.seal(new Uint8Array(8), new Uint8Array(32)),
      });
    };
    await Promise.all([bulk(warm), bulk(cold)]);
    expect(cold.getHead().hash()).toEqual(warm.getHead().hash());
    for (let n = replica.getHead().header.number + 1n; n <= warm.getHead().header.number; n++) {
      expect((await replica.importBlock((await warm.getBlock(n))!)).status).toBe('head');
    }
    // Carried to the new head (its root checked against the head's), not left behind on the block before the bulk.
    expect(warmHash(warm)).toEqual(warm.getHead().hash());
    // The rewards went through the flat state the miner executes on: the next block runs on it (and its VM).
    expect(flatOf(warm)).toBe(flatBefore);
    // Value to the coinbase: the block reads the balance the bulk rewards credited on the carried state.
    await mineBoth((c) => [
      signedTx(c, { from: 2, nonce: nonces.get(2)!, to: COINBASE, value: 7n }),
      signedTx(c, { from: 1, nonce: nonces.get(1)!, to: contract, data: Uint8Array.of(7), gasLimit: 100_000n }),
    ]);
    next(2);
    next(1);
    expect(isWarm(warm)).toBe(true);
    await mineBoth((c) => [
      signedTx(c, { from: 2, nonce: nonces.get(2)!, to: addresses[3], value: 1n }),
      signedTx(c, { from: 1, nonce: nonces.get(1)!, to: contract, gasLimit: 100_000n }),
    ]);
    next(2);
    next(1);
  });

  it('starts from the head state after a rewind', async () => {
    const head = warm.getHead().header.number;
    await Promise.all([warm.rewindTo(head - 2n), cold.rewindTo(head - 2n), replica.rewindTo(head - 2n)]);
    expect(isWarm(warm)).toBe(false);
    // Senders 1 and 2 are back by two nonces: on the state the warm one was at, this transaction would be refused.
    nonces.set(1, nonces.get(1)! - 2n);
    nonces.set(2, nonces.get(2)! - 2n);
    const timestamp = warm.getHead().header.timestamp + 7n;
    const make = (c: Blockchain) => [
      signedTx(c, { from: 1, nonce: nonces.get(1)!, to: contract, data: Uint8Array.of(9), gasLimit: 100_000n }),
    ];
    const a = await mine(warm, make(warm), { coinbase: COINBASE, timestamp });
    const b = await mine(cold, make(cold), { coinbase: COINBASE, timestamp });
    next(1);
    expect(a.assembled.rejected).toEqual([]);
    expect(a.block.hash()).toEqual(b.block.hash());
    const state = (await warm.stateAt('latest'))!;
    expect(bytesToBigInt(await state.getStorageAt(contract, Uint8Array.of(0)))).toBe(7n);
    expect((await replica.importBlock(replica.decodeBlock(a.block.serialize()))).status).toBe('head');
    // Warm again after the miner's own block, and it stays right.
    expect(isWarm(warm)).toBe(true);
    await mineBoth((c) => [signedTx(c, { from: 1, nonce: nonces.get(1)!, to: contract, gasLimit: 100_000n })]);
    next(1);
  });

  it('drops the warm state when the head moves by a block made elsewhere', async () => {
    expect(isWarm(warm)).toBe(true);
    // `cold` builds the next block; `warm` imports it (validated and executed like a peer's block).
    const timestamp = cold.getHead().header.timestamp + 13n;
    const made = await mine(cold, [signedTx(cold, { from: 2, nonce: nonces.get(2)!, to: addresses[4], value: 5n })], {
      coinbase: COINBASE,
      timestamp,
    });
    expect(made.assembled.rejected).toEqual([]);
    next(2);
    expect((await warm.importBlock(warm.decodeBlock(made.block.serialize()))).status).toBe('head');
    expect((await replica.importBlock(replica.decodeBlock(made.block.serialize()))).status).toBe('head');
    expect(isWarm(warm)).toBe(false);
    await mineBoth((c) => [
      signedTx(c, { from: 2, nonce: nonces.get(2)!, to: addresses[4], value: 6n }),
      signedTx(c, { from: 1, nonce: nonces.get(1)!, to: contract, gasLimit: 100_000n }),
    ]);
    next(2);
    next(1);
    const state = (await warm.stateAt('latest'))!;
    expect(await state.getNonce(addresses[2])).toBe(nonces.get(2));
  });

  it("answers the head's account reads from the kept state, and an older block's view never sees a later block", async () => {
    const accounts = [...addresses.slice(0, 4), COINBASE, contract];
    const readView = (view: StateView) =>
      Promise.all(
        accounts.map(async (a) => [
          await view.getBalance(a),
          await view.getNonce(a),
          bytesToHex(await view.getStorageRoot(a)),
        ]),
      );
    const readAll = async (chain: Blockchain, hash: Uint8Array) => readView((await chain.stateAt(hash))!);
    for (let i = 0; i < 2; i++) {
      const before = warm.getHead().hash();
      // The view of the head is made while the state is still that block's, and read only after the next block.
      const earlier = (await warm.stateAt(before))!;
      const m = await mineBoth((c) => [
        signedTx(c, { from: 2, nonce: nonces.get(2)!, to: addresses[3], value: 10n }),
        signedTx(c, { from: 1, nonce: nonces.get(1)!, to: contract, data: Uint8Array.of(i), gasLimit: 100_000n }),
      ]);
      next(2);
      next(1);
      expect(warmHash(warm)).toEqual(m.block.hash());
      const head = (await warm.stateAt(m.block.hash()))!;
      // Every account the block touched comes from the kept state: the view opens no trie of its own for them.
      for (const a of [addresses[1], addresses[2], addresses[3], COINBASE, contract]) await head.getNonce(a);
      expect((head as unknown as { opened: unknown }).opened).toBeUndefined();
      expect(await readAll(warm, m.block.hash())).toEqual(await readAll(replica, m.block.hash()));
      const old = await readView(earlier);
      expect(old).toEqual(await readAll(replica, before));
    }
  });

  it('empties its caches in place at the gas bound: the same state, flat state and VM, and the cold path’s blocks', async () => {
    const ws = warmStateOf(warm);
    const kept = () => (ws as unknown as { warm?: { state: unknown } }).warm?.state;
    const held = () => (flatOf(warm) as unknown as { accounts: Map<string, unknown> }).accounts;
    const stateBefore = kept();
    const flatBefore = flatOf(warm);
    expect(flatBefore).toBeDefined();
    // Every block runs past it (a contract call and a transfer): each next block starts on emptied caches.
    ws.gasBound = 50_000n;
    try {
      let previous: Uint8Array | undefined;
      for (let i = 0; i < 5; i++) {
        const fresh = new Uint8Array(20).fill(0x40 + i);
        await mineBoth((c) => [
          signedTx(c, {
            from: 1,
            nonce: nonces.get(1)!,
            to: contract,
            data: Uint8Array.of(0x20, i),
            gasLimit: 100_000n,
          }),
          signedTx(c, { from: 2, nonce: nonces.get(2)!, to: fresh, value: 3n + BigInt(i) }),
        ]);
        next(1);
        next(2);
        expect(kept()).toBe(stateBefore);
        expect(flatOf(warm)).toBe(flatBefore);
        // Bounded: the account the block before touched alone is gone with the emptied caches.
        expect(held().has(bytesToHex(fresh).slice(2))).toBe(true);
        if (previous !== undefined) {
          expect(held().has(bytesToHex(previous).slice(2))).toBe(false);
          // The state manager under it too (each root writes the block's accounts into its cache).
          expect(
            (stateBefore as { stateManager: ChainStateManager }).stateManager.cachedAccount(new Address(previous)),
          ).toBeUndefined();
        }
        previous = fresh;
      }
    } finally {
      ws.gasBound = 30_000_000n;
    }
    const state = (await warm.stateAt('latest'))!;
    const expected = (await replica.stateAt(warm.getHead().hash()))!;
    expect(await state.getStorageAt(contract, Uint8Array.of(0))).toEqual(
      await expected.getStorageAt(contract, Uint8Array.of(0)),
    );
  });

  it('stored every state node: after a restart the whole state reads back from the database', async () => {
    const head = warm.getHead();
    await warm.close();
    warm = await openDevChain(dirs[0].dir, { flatState: true });
    const reopened = (await warm.stateAt('latest'))!;
    const expected = (await replica.stateAt(head.hash()))!;
    for (let n = 0n; n <= head.header.number; n++) {
      const slot = Uint8Array.of(Number(n));
      expect(await reopened.getStorageAt(contract, slot)).toEqual(await expected.getStorageAt(contract, slot));
    }
    for (const a of [...addresses.slice(0, 5), COINBASE, contract]) {
      expect(await reopened.getBalance(a)).toBe(await expected.getBalance(a));
      expect(await reopened.getNonce(a)).toBe(await expected.getNonce(a));
    }
    expect(await reopened.getCode(contract)).toEqual(await expected.getCode(contract));
  });
});

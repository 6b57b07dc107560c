/**
 * The flat state on a dev engine driven by its controls (src/chain/dev/): anvil_setBalance/setStorageAt/setCode
 * edits in place, evm_snapshot/evm_revert, bulk empty blocks (qa_mineBlocks / anvil_mine): after each, the table
 * equals the trie of the head's state, which reads at the head then cover.
 */
import { bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import type { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { devControlsOf } from '../../../src/chain/dev/dev-controls.js';
import { signedTx } from '../engine/fixtures.js';
import { scopedEngines } from '../engine/scoped-engines.js';
import { flatOf, flatReady, tableEntries, trieEntries } from './flat-check.js';

const engines = scopedEngines('flat-dev-');

async function expectTableAtHead(chain: Blockchain): Promise<number> {
  const view = (chain as unknown as { view: { stateRootAfter(h: unknown): Uint8Array } }).view;
  const root = view.stateRootAfter(chain.getHead().header);
  expect(bytesToHex(flatOf(chain).root)).toBe(bytesToHex(root));
  expect(flatOf(chain).covers(root)).toBe(true);
  expect(flatOf(chain).rebuilds).toBe(0);
  const trie = trieEntries(chain, root);
  expect(await tableEntries(chain)).toEqual(trie);
  return trie.size;
}

const address = (n: number) => Uint8Array.from(Buffer.from(n.toString(16).padStart(40, '0'), 'hex'));
const word = (n: number) => Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'));

describe('flat state on a dev engine', () => {
  it('follows state edits, snapshots and their reverts, and bulk empty blocks', async () => {
    const engine = await engines.open({
      dataDir: engines.newDir(),
      network: 'dev',
      seal: 'instant',
      mining: { coinbase: address(0xcb) },
    });
    const chain = engine.chain;
    const dev = devControlsOf(engine);
    await flatReady(chain);
    await expectTableAtHead(chain);
    await dev.mine(3);
    await expectTableAtHead(chain);
    // Blocks of transactions from the pool, as the dev miner assembles and imports them (its execution reused).
    for (let b = 0; b < 3; b++) {
      for (let i = 0; i < 4; i++)
        await engine.pool.add(
          signedTx(chain, { from: 0, nonce: BigInt(b * 4 + i), to: address(100 + i), value: 1n }).serialize(),
        );
      await dev.mine(1);
      await expectTableAtHead(chain);
    }
    expect(await chain.getBlock(chain.getHead().hash())).toBeDefined();
    expect((await chain.getBlock(chain.getHead().header.number))!.transactions.length).toBe(4);
    const snapAt = chain.getHead().header.number;
    const snap = dev.snapshot();
    await dev.edit([
      { kind: 'balance', address: address(1), balance: 10n ** 18n },
      { kind: 'code', address: address(2), code: Uint8Array.of(0x60, 0x00) },
      { kind: 'storage', address: address(2), slot: 5n, value: word(77) },
      { kind: 'storage', address: address(2), slot: 6n, value: word(78) },
    ]);
    const edited = await expectTableAtHead(chain);
    await dev.edit([{ kind: 'storage', address: address(2), slot: 5n, value: word(0) }]);
    expect(await expectTableAtHead(chain)).toBe(edited - 1);
    await dev.mine(250);
    await expectTableAtHead(chain);
    await dev.edit([{ kind: 'nonce', address: address(3), nonce: 9n }]);
    await expectTableAtHead(chain);
    expect(await dev.revert(snap)).toBe(true);
    expect(chain.getHead().header.number).toBe(snapAt);
    await expectTableAtHead(chain);
    await dev.reset();
    await expectTableAtHead(chain);
  });

  it("stages the dev miner's blocks from their execution's listed changes, equal to the trie walk", async () => {
    const engine = await engines.open({
      dataDir: engines.newDir(),
      network: 'dev',
      seal: 'instant',
      mining: { coinbase: address(0xcb) },
    });
    const chain = engine.chain;
    const dev = devControlsOf(engine);
    await flatReady(chain);
    // Every listed move is staged and also walked; a difference throws instead of being written.
    flatOf(chain).checkListed = true;
    // v = calldata word: slot 0 = v, slot 1 = v + 1, slot 2 = v (v = 0 clears slots 0 and 2).
    const code = Uint8Array.from(Buffer.from('600035' + '80600055' + '80600101600155' + '600255' + '00', 'hex'));
    const contract = address(0xc0de);
    await dev.edit([{ kind: 'code', address: contract, code }]);
    let nonce = 0n;
    const store = (v: number) =>
      signedTx(chain, { from: 0, nonce: nonce++, to: contract, data: word(v), gasLimit: 200_000n }).serialize();
    const pay = (to: number) =>
      signedTx(chain, { from: 1, nonce: BigInt(to - 200), to: address(to), value: 5n }).serialize();
    const listedBefore = flatOf(chain).listedMoves;
    // One block each: slots set, changed, cleared, set again; then a block of several senders and slots.
    for (const v of [5, 7, 0, 9]) {
      await engine.pool.add(store(v));
      await dev.mine(1);
      await expectTableAtHead(chain);
    }
    await engine.pool.add(store(0));
    await engine.pool.add(store(3));
    await engine.pool.add(pay(200));
    await engine.pool.add(pay(201));
    await dev.mine(1);
    await expectTableAtHead(chain);
    expect((await chain.getBlock(chain.getHead().header.number))!.transactions.length).toBe(4);
    expect(flatOf(chain).listedMoves - listedBefore).toBe(5);
  });
  it("stages bulk empty blocks' head moves from their rewards' listed changes, equal to the trie walk", async () => {
    const engine = await engines.open({
      dataDir: engines.newDir(),
      network: 'dev',
      seal: 'instant',
      mining: { coinbase: address(0xcb) },
    });
    const chain = engine.chain;
    await flatReady(chain);
    flatOf(chain).checkListed = true;
    const listedBefore = flatOf(chain).listedMoves;
    // The coinbase is absent before its first reward (a leaf added), then paid chunk after chunk (a leaf changed).
    await engine.miner.mineBlocks(7, { withTransactions: false, chunkSize: 3 });
    expect(chain.getHead().header.number).toBe(7n);
    await expectTableAtHead(chain);
    expect(flatOf(chain).listedMoves - listedBefore).toBe(3);
  });
});

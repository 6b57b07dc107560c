/**
 * An imported block lists its flat-state changes (src/chain/state/change-list.ts) and the table stages them instead
 * of walking the tries, except where a list cannot say the change: a contract deleted with its storage walks. After
 * each import the table equals the trie of the head's state, and `checkListed` walks every listed move too.
 */
import { Address, createContractAddress } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import type { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { devControlsOf } from '../../../src/chain/dev/dev-controls.js';
import { initCodeOf } from '../differential/asm.js';
import { addresses, signedTx } from '../engine/fixtures.js';
import { scopedEngines } from '../engine/scoped-engines.js';
import { flatOf, flatReady, tableEntries, trieEntries } from './flat-check.js';

const engines = scopedEngines('flat-import-');
const coinbase = new Uint8Array(20).fill(0xcb);
const word = (n: number) => Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'));

/** Calldata word v: v = 0 self-destructs to the caller, else slot 0 = v. */
const runtime = Uint8Array.from(Buffer.from('600035' + '80' + '6009' + '57' + '33ff' + '5b' + '600055' + '00', 'hex'));

async function expectTableAtHead(chain: Blockchain): Promise<void> {
  const root = chain.getHead().header.stateRoot;
  expect(Buffer.from(flatOf(chain).root).toString('hex')).toBe(Buffer.from(root).toString('hex'));
  expect(flatOf(chain).rebuilds).toBe(0);
  expect(await tableEntries(chain)).toEqual(trieEntries(chain, root));
}

describe('flat state on import', () => {
  it("stages an imported block's listed changes, and walks a block that deletes a contract with storage", async () => {
    const open = () =>
      engines.open({ dataDir: engines.newDir(), network: 'dev', seal: 'instant', mining: { coinbase } });
    const miner = await open();
    const dev = devControlsOf(miner);
    const contract = createContractAddress(new Address(addresses[0]!), 0n).bytes;
    let nonce = 0n;
    const call = (v: number) =>
      signedTx(miner.chain, { from: 0, nonce: nonce++, to: contract, data: word(v), gasLimit: 100_000n }).serialize();
    const pay = (n: bigint) =>
      signedTx(miner.chain, { from: 1, nonce: n, to: new Uint8Array(20).fill(0x77), value: 5n }).serialize();
    /** Per block: its transactions, and whether its changes can be listed. */
    const plan: { txs: () => Uint8Array[]; listed: boolean }[] = [
      {
        txs: () => [
          signedTx(miner.chain, { from: 0, nonce: nonce++, data: initCodeOf(runtime), gasLimit: 200_000n }).serialize(),
        ],
        listed: true,
      },
      { txs: () => [call(5)], listed: true },
      { txs: () => [call(7), pay(0n)], listed: true },
      // SELFDESTRUCT of a contract with a slot: its storage goes at once, which no list of leaves says.
      { txs: () => [call(0)], listed: false },
      { txs: () => [pay(1n)], listed: true },
    ];
    for (const { txs } of plan) {
      for (const raw of txs()) await miner.pool.add(raw);
      await dev.mine(1);
    }

    const importer = await open();
    await flatReady(importer.chain);
    flatOf(importer.chain).checkListed = true;
    for (const [i, { listed }] of plan.entries()) {
      const block = (await miner.chain.getBlock(BigInt(i + 1)))!;
      expect(block.transactions.length).toBeGreaterThan(0);
      const before = flatOf(importer.chain).listedMoves;
      expect((await importer.chain.importBlock(importer.chain.decodeBlock(block.serialize()))).status).toBe('head');
      expect(flatOf(importer.chain).listedMoves - before, `block ${i + 1} staged as listed`).toBe(listed ? 1 : 0);
      await expectTableAtHead(importer.chain);
    }
    expect(await (await importer.chain.stateAt('latest'))!.getCode(contract)).toEqual(new Uint8Array(0));
  });
});

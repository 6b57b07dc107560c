/**
 * Plain transfers skip the EVM (src/chain/exec/plain-transfers.ts); the result must be the EVM's. A chain with the
 * ledger assembles blocks mixing transfers it takes with transactions it must hand to the EVM; a chain running
 * everything through the EVM imports them with full validation, so any difference in state root, receipts root
 * or gas used refuses the block.
 */
import { createAccessList2930Tx } from '@ethereumjs/tx';
import { Address } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { engineNetworkOf, etcEngineRules } from '../../../src/chain/engine/engine-adapters.js';
import { PlainTransferLedger } from '../../../src/chain/exec/plain-transfers.js';
import { dev } from '../../../src/chain/networks/index.js';
import { addresses, keys, mine, openDevChain, signedTx, tempDir } from './fixtures.js';

const COINBASE = new Uint8Array(20).fill(0xcb);
const fresh = (n: number) => new Uint8Array(20).fill(0x40 + n);
const ETH = 10n ** 18n;
// Init code returning a one-byte runtime (STOP): a contract that accepts value.
const STOP_CONTRACT = Uint8Array.from([0x60, 0x01, 0x60, 0x0c, 0x60, 0x00, 0x39, 0x60, 0x01, 0x60, 0x00, 0xf3, 0x00]);

const dirs = [tempDir('plain-a-'), tempDir('plain-b-')];
let withLedger: Blockchain;
let evmOnly: Blockchain;
const taken = vi.fn();
/** Deployed by the first block. */
let contract: Uint8Array;

beforeAll(async () => {
  const original = PlainTransferLedger.prototype.tryApply;
  vi.spyOn(PlainTransferLedger.prototype, 'tryApply').mockImplementation(async function (
    this: PlainTransferLedger,
    tx,
  ) {
    const applied = await original.call(this, tx);
    if (applied !== undefined) taken(tx.hash());
    return applied;
  });
  withLedger = await openDevChain(dirs[0].dir);
  evmOnly = await Blockchain.open({
    dataDir: dirs[1].dir,
    network: engineNetworkOf(dev),
    rules: etcEngineRules(dev),
    noProof: true,
    evmOnly: true,
  });
});

afterAll(async () => {
  vi.restoreAllMocks();
  await withLedger?.close();
  await evmOnly?.close();
  for (const d of dirs) d.remove();
});

/** Mines `txs` with the ledger, then has the EVM-only chain import the block; returns what the miner did. */
async function mineAndReplay(txs: Parameters<typeof mine>[1], coinbase: Uint8Array = COINBASE) {
  taken.mockClear();
  const { block, assembled } = await mine(withLedger, txs, { coinbase });
  const fast = taken.mock.calls.length;
  const replayed = await evmOnly.importBlock(evmOnly.decodeBlock(block.serialize()));
  expect(replayed.status).toBe('head');
  expect(taken).toHaveBeenCalledTimes(fast); // the EVM-only chain never used the ledger
  return { block, assembled, fast };
}

describe('plain transfers without the EVM', () => {
  it('give the EVM state, receipts and gas for transfers mixed with transactions the EVM must run', async () => {
    const common = withLedger.txCommonAt(1n);
    const txs = [
      signedTx(withLedger, { from: 0, nonce: 0n, to: fresh(1), value: ETH }), // creates the recipient
      signedTx(withLedger, { from: 0, nonce: 1n, to: fresh(2), value: 0n }), // EIP-161: nothing is created
      signedTx(withLedger, { from: 1, nonce: 0n, to: addresses[2], value: 5n, gasLimit: 50_000n }), // unused gas refunded
      signedTx(withLedger, { from: 1, nonce: 1n, to: addresses[1], value: 7n }), // to itself: ledger
      signedTx(withLedger, { from: 2, nonce: 0n, to: COINBASE, value: 9n }), // to the coinbase: ledger
      signedTx(withLedger, {
        from: 3,
        nonce: 0n,
        to: new Uint8Array(20).fill(0, 0, 19).fill(4, 19),
        value: 1n,
        gasLimit: 30_000n,
      }), // identity precompile: EVM
      createAccessList2930Tx(
        { nonce: 0n, to: new Address(fresh(3)), value: 3n, gasLimit: 21_000n, gasPrice: 10n ** 9n, accessList: [] },
        { common },
      ).sign(keys[4]),
      signedTx(withLedger, { from: 5, nonce: 9n, to: fresh(4), value: 1n }), // wrong nonce: refused by the EVM path
      signedTx(withLedger, { from: 7, nonce: 0n, data: STOP_CONTRACT, gasLimit: 100_000n }), // contract creation: EVM
    ];
    const { assembled, fast } = await mineAndReplay(txs);
    expect(assembled.rejected.map((r) => r.tx.hash())).toEqual([txs[7].hash()]);
    expect(assembled.rejected[0].reason).toMatch(/nonce/);
    expect(fast).toBe(6);
    const gas = assembled.receipts.map((r) => r.gasUsed);
    expect(gas.slice(0, 3)).toEqual([21_000n, 21_000n, 21_000n]);
    expect(gas[5]).toBeGreaterThan(21_000n);
    expect(assembled.receipts.every((r) => r.status === 1)).toBe(true);
    contract = assembled.receipts.at(-1)!.contractAddress!;
    expect(contract).toHaveLength(20);
    const state = await withLedger.stateAt('latest');
    expect(await state!.getBalance(fresh(1))).toBe(ETH);
    expect(await state!.getNonce(addresses[0])).toBe(2n);
  });

  it('leave a transfer to a contract, and one with data, to the EVM', async () => {
    const txs = [
      signedTx(withLedger, { from: 8, nonce: 0n, to: contract, value: 11n, gasLimit: 30_000n }),
      signedTx(withLedger, { from: 0, nonce: 2n, to: fresh(5), value: 1n, data: Uint8Array.of(1), gasLimit: 30_000n }),
      signedTx(withLedger, { from: 0, nonce: 3n, to: fresh(1), value: 2n }), // existing recipient: ledger
    ];
    const { assembled, fast } = await mineAndReplay(txs);
    expect(assembled.rejected).toEqual([]);
    expect(fast).toBe(1);
    const state = await withLedger.stateAt('latest');
    expect(await state!.getBalance(contract)).toBe(11n);
    expect(await state!.getBalance(fresh(1))).toBe(ETH + 2n);
  });

  it('give the EVM state when the sender, the recipient or both are the coinbase (a dev node sending from account 0)', async () => {
    const miner = addresses[9]!;
    const [minerBalance, coinbaseBalance] = await (async () => {
      const state = await withLedger.stateAt('latest');
      return [await state!.getBalance(miner), await state!.getBalance(COINBASE)];
    })();
    const txs = [
      signedTx(withLedger, { from: 9, nonce: 0n, to: fresh(6), value: 13n }), // from the coinbase, to a new account
      signedTx(withLedger, { from: 9, nonce: 1n, to: fresh(1), value: 0n, gasLimit: 40_000n }), // no value, gas left
      signedTx(withLedger, { from: 9, nonce: 2n, to: miner, value: 17n }), // the coinbase to itself
      signedTx(withLedger, { from: 8, nonce: 1n, to: miner, value: 19n }), // to the coinbase
      signedTx(withLedger, { from: 8, nonce: 2n, to: COINBASE, value: 0n }), // to a former coinbase, now a plain account
    ];
    const { assembled, fast } = await mineAndReplay(txs, miner);
    expect(assembled.rejected).toEqual([]);
    expect(fast).toBe(5);
    const state = await withLedger.stateAt('latest');
    // Its own fees come back to it: the coinbase loses only the value it sent to others, and gains what it was sent,
    // the other sender's fees and the block reward (5 ETC in the dev chain's first era).
    const fees = 2n * 21_000n * 10n ** 9n;
    expect(await state!.getBalance(miner)).toBe(minerBalance - 13n + 19n + fees + 5n * ETH);
    expect(await state!.getNonce(miner)).toBe(3n);
    expect(await state!.getBalance(fresh(6))).toBe(13n);
    expect(await state!.getBalance(COINBASE)).toBe(coinbaseBalance);
  });
});

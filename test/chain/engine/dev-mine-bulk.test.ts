/**
 * The dev methods that mine many blocks (anvil_mine / hardhat_mine: a count and an optional interval; evm_mine: a
 * first timestamp and a count) reach the bulk path of qa_mineBlocks (Blockchain.extendHead, one database batch per
 * chunk) when nothing is pending, with the timestamps they ask for; with a transaction pending, its block comes
 * first and the rest go in bulk.
 */
import { describe, expect, it, vi } from 'vitest';
import { devControlsOf } from '../../../src/chain/index.js';
import { addresses, signedTx } from './fixtures.js';
import { scopedEngines } from './scoped-engines.js';

const engines = scopedEngines('dev-mine-bulk-');

async function openDev() {
  const engine = await engines.open({ dataDir: engines.newDir(), network: 'dev', seal: 'instant' });
  const bulk = vi.spyOn(engine.chain, 'extendHead');
  const inBulk = () => bulk.mock.calls.reduce((sum, [opts]) => sum + opts.count, 0);
  return { engine, controls: devControlsOf(engine), inBulk };
}

describe('dev mining methods and the bulk path', () => {
  it('anvil_mine / hardhat_mine (a count): every block in bulk', async () => {
    const { engine, controls, inBulk } = await openDev();
    const before = engine.chain.getHead().header.number;
    await controls.mine(250);
    expect(engine.chain.getHead().header.number).toBe(before + 250n);
    expect(inBulk()).toBe(250);
  });

  it('anvil_mine with an interval: in bulk, the timestamps that many seconds apart', async () => {
    const { engine, controls, inBulk } = await openDev();
    const before = engine.chain.getHead().header.number;
    await controls.mine(40, undefined, 7n);
    expect(inBulk()).toBe(40);
    const stamps: bigint[] = [];
    for (let n = before + 1n; n <= before + 40n; n++) stamps.push((await engine.chain.getBlock(n))!.header.timestamp);
    for (let i = 1; i < stamps.length; i++) expect(stamps[i] - stamps[i - 1]).toBe(7n);
  });

  it('evm_mine with a timestamp and a count: in bulk, the first block at that timestamp', async () => {
    const { engine, controls, inBulk } = await openDev();
    const first = engine.chain.getHead().header.timestamp + 1000n;
    const before = engine.chain.getHead().header.number;
    await controls.mine(30, first);
    expect(inBulk()).toBe(30);
    expect((await engine.chain.getBlock(before + 1n))!.header.timestamp).toBe(first);
  });

  it('with a transaction pending: its block first, then the rest in bulk', async () => {
    const { engine, controls, inBulk } = await openDev();
    await engine.pool.add(signedTx(engine.chain, { from: 1, nonce: 0n, to: addresses[2], value: 5n }));
    const before = engine.chain.getHead().header.number;
    await controls.mine(20);
    expect(engine.chain.getHead().header.number).toBe(before + 20n);
    expect((await engine.chain.getBlock(before + 1n))!.transactions).toHaveLength(1);
    expect(inBulk()).toBe(19);
  });
});

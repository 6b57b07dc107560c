/**
 * A dev chain (instant seal) with Bastion scheduled at block 10 through its network definition (the engine's
 * schedule; the `--override.bastion` flag that sets it from the command line is another branch's part): a contract
 * using TSTORE/TLOAD, MCOPY and CLZ fails with an invalid opcode in block 9 and works from block 10, and calls to
 * the BLS12-381 G1ADD (0x0b) and P256VERIFY (0x100) precompiles reach an empty account in block 9 and the
 * precompile (its output, its gas) from block 10; a second engine imports those blocks cold with the same result.
 * Inputs are the EIPs' own vectors (test/fixtures/bastion).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bytesToBigInt, bytesToHex, hexToBytes } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import type { ChainEngine } from '../../../src/chain/engine/engine.js';
import { dev } from '../../../src/chain/networks/index.js';
import type { NetworkDefinition } from '../../../src/chain/networks/types.js';
import { signedTx } from '../engine/fixtures.js';
import { scopedEngines } from '../engine/scoped-engines.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/bastion');
const vector = (path: string) =>
  (JSON.parse(readFileSync(join(FIXTURES, path), 'utf8')) as Array<{ Input: string; Expected: string }>)[0]!;
const BLS_G1ADD = vector('eip-2537/add_G1_bls.json');
const P256 = vector('eip-7951/test-vectors.json');

const BASTION_BLOCK = 10n;
const CONTRACT = hexToBytes('0x00000000000000000000000000000000000b1a57');
const at = (n: number) => hexToBytes(`0x${n.toString(16).padStart(40, '0')}`);
/**
 * TSTORE(0, 0x2a); TLOAD(0) → mem[0]; MCOPY(0x20 ← 0, 32); CLZ(mload(0x20)) → slot 0 and the return value.
 * 0x2a has 6 significant bits: CLZ gives 250 (0xfa).
 */
const CODE = hexToBytes('0x602a60005d60005c6000526020600060205e6020511e8060005560005260206000f3');

const bastionAt10: NetworkDefinition = {
  ...dev,
  forks: { ...dev.forks, bastion: BASTION_BLOCK },
  genesis: {
    ...dev.genesis,
    loadAlloc: async () => [...(await dev.genesis.loadAlloc()), { address: CONTRACT, balance: 0n, code: CODE }],
  },
};

const engines = scopedEngines('bastion-dev-');

/** Mines one block holding a call to the contract and one to each precompile; returns their receipts. */
async function mineCalls(engine: ChainEngine, firstNonce: bigint) {
  const send = (nonce: bigint, to: Uint8Array, data: string) =>
    engine.pool.add(signedTx(engine.chain, { from: 1, nonce, to, data: hexToBytes(`0x${data}`), gasLimit: 200_000n }));
  await send(firstNonce, CONTRACT, '');
  await send(firstNonce + 1n, at(0x0b), BLS_G1ADD.Input);
  await send(firstNonce + 2n, at(0x100), P256.Input);
  const [mined] = await engine.miner.mineBlocks(1);
  expect(mined!.transactions).toHaveLength(3);
  const receipts = (await engine.chain.getReceipts(mined!.block.hash()))!;
  return { number: mined!.block.header.number, receipts };
}

describe('Bastion on a dev chain (scheduled at block 10)', () => {
  it('turns on TSTORE/TLOAD, MCOPY, CLZ and the BLS and P256 precompiles at its block, not before', async () => {
    const engine = await engines.open({ dataDir: engines.newDir(), network: bastionAt10, seal: 'instant' });
    await engine.miner.mineBlocks(Number(BASTION_BLOCK) - 2);

    const before = await mineCalls(engine, 0n);
    expect(before.number).toBe(BASTION_BLOCK - 1n);
    const after = await mineCalls(engine, 3n);
    expect(after.number).toBe(BASTION_BLOCK);

    // The contract: an invalid opcode (all its gas) in block 9, success from block 10.
    expect(before.receipts[0]!.status).toBe(0);
    expect(before.receipts[0]!.gasUsed).toBe(200_000n);
    expect(after.receipts[0]!.status).toBe(1);
    const state = (await engine.chain.stateAt('latest'))!;
    expect(bytesToBigInt(await state.getStorageAt(CONTRACT, new Uint8Array(32)))).toBe(0xfan);

    // The precompiles: the same calls cost their price on top from block 10 (G1ADD 375, P256VERIFY 6900).
    expect(before.receipts[1]!.status).toBe(1);
    expect(after.receipts[1]!.gasUsed - before.receipts[1]!.gasUsed).toBe(375n);
    expect(after.receipts[2]!.gasUsed - before.receipts[2]!.gasUsed).toBe(6900n);

    // eth_call on each block's state: nothing answers before, the precompile's vector output from Bastion on.
    const call = async (n: bigint, to: Uint8Array, data: string) => {
      const r = (await engine.chain.call(n, { to, data: hexToBytes(`0x${data}`), gas: 200_000n }))!;
      return r.error ?? bytesToHex(r.returnData).slice(2);
    };
    expect(await call(BASTION_BLOCK - 1n, at(0x0b), BLS_G1ADD.Input)).toBe('');
    expect(await call(BASTION_BLOCK, at(0x0b), BLS_G1ADD.Input)).toBe(BLS_G1ADD.Expected);
    expect(await call(BASTION_BLOCK - 1n, at(0x100), P256.Input)).toBe('');
    expect(await call(BASTION_BLOCK, at(0x100), P256.Input)).toBe(P256.Expected);
    expect(await call(BASTION_BLOCK - 1n, CONTRACT, '')).toBe('invalid opcode');
    expect(await call(BASTION_BLOCK, CONTRACT, '')).toBe(`${'0'.repeat(62)}fa`);

    // A peer's path: another engine on the same schedule imports blocks 1–10 cold and gets the same receipts.
    const importer = await engines.open({ dataDir: engines.newDir(), network: bastionAt10, seal: 'instant' });
    for (let n = 1n; n <= BASTION_BLOCK; n++) await importer.chain.importBlock((await engine.chain.getBlock(n))!);
    const head = importer.chain.getHead();
    expect(head.hash()).toEqual((await engine.chain.getBlock(BASTION_BLOCK))!.hash());
    const imported = (await importer.chain.getReceipts(head.hash()))!;
    expect(imported.map((r) => [r.status, r.gasUsed])).toEqual(after.receipts.map((r) => [r.status, r.gasUsed]));
  }, 120_000);
});

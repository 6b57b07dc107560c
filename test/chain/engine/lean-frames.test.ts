/**
 * The dev miner's assembly runs contract calls on the call VMs' narrower paths (`leanFrames`, src/chain/exec/
 * call-frames.ts: lean CALL frames, call-opcodes.ts' MSTORE/MLOAD/SLOAD/CALLDATALOAD, call-journal.ts' keys); the
 * result must be the library's. A dev chain assembles blocks of calls that take every kind of frame (CALL with value,
 * DELEGATECALL, STATICCALL, CALLCODE, a reverting callee, a precompile, an out-of-gas loop, CREATE, CREATE2,
 * SELFDESTRUCT, logs, storage set and cleared); a chain running everything in the library's frames imports them with
 * full validation, so any difference in state root, receipts root, bloom or gas used refuses the block.
 */
import { bytesToHex, generateAddress, hexToBytes } from '@ethereumjs/util';
import { EVM } from '@ethereumjs/evm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { engineNetworkOf, etcEngineRules } from '../../../src/chain/engine/engine-adapters.js';
import { dev } from '../../../src/chain/networks/index.js';
import { deployCode, driverRuntime, loopRuntime, reverterRuntime, storeRuntime } from '../../trace/evm-asm.js';
import { addresses, mine, openDevChain, signedTx, tempDir } from './fixtures.js';

/** The library's CALL frame: a lean EVM has its own (an own property over this prototype method). */
const libraryFrames = vi.spyOn(EVM.prototype as unknown as { _executeCall: () => unknown }, '_executeCall');

const dirs = [tempDir('lean-a-'), tempDir('lean-b-')];
let lean: Blockchain;
let library: Blockchain;

const created = (from: number, nonce: bigint) =>
  generateAddress(addresses[from]!, hexToBytes(`0x${nonce.toString(16).padStart(2, '0')}`));
const FULL_WORD = 0xf1e2d3c4b5a69788796a5b4c3d2e1f0ff1e2d3c4b5a69788796a5b4c3d2e1f0fn;
const word = (n: bigint) => hexToBytes(`0x${n.toString(16).padStart(64, '0')}`);

beforeAll(async () => {
  lean = await openDevChain(dirs[0].dir, { flatState: true });
  library = await Blockchain.open({
    dataDir: dirs[1].dir,
    network: engineNetworkOf(dev),
    rules: etcEngineRules(dev),
    noProof: true,
    evmOnly: true,
  });
});

afterAll(async () => {
  libraryFrames.mockRestore();
  await lean?.close();
  await library?.close();
  for (const d of dirs) d.remove();
});

/** Mines `txs` on the lean chain; the library chain imports the block, re-executing it in the library's frames. */
async function mineAndReplay(txs: Parameters<typeof mine>[1]) {
  libraryFrames.mockClear();
  const { block, assembled } = await mine(lean, txs);
  // Every message call of the assembly ran in the lean frame; the import below runs them in the library's.
  expect(libraryFrames).not.toHaveBeenCalled();
  const replayed = await library.importBlock(library.decodeBlock(block.serialize()));
  expect(replayed.status).toBe('head');
  expect(bytesToHex(library.getHead().header.stateRoot)).toBe(bytesToHex(block.header.stateRoot));
  return assembled;
}

describe('lean call frames in the dev miner', () => {
  it('give the library state, receipts, logs and gas for calls taking every kind of frame', async () => {
    const store = created(0, 0n);
    const reverter = created(0, 1n);
    const loop = created(0, 2n);
    const driver = created(0, 3n);
    const hex = (a: Uint8Array) => bytesToHex(a);
    const deploys = [storeRuntime, reverterRuntime, loopRuntime, driverRuntime(hex(store), hex(reverter), hex(loop))];
    const deployed = await mineAndReplay(
      deploys.map((runtime, i) =>
        signedTx(lean, {
          from: 0,
          nonce: BigInt(i),
          data: hexToBytes(deployCode(runtime) as `0x${string}`),
          gasLimit: 300_000n,
        }),
      ),
    );
    expect(deployed.receipts.map((r) => r.status)).toEqual([1, 1, 1, 1]);

    const calls = await mineAndReplay([
      signedTx(lean, { from: 1, nonce: 0n, to: driver, value: 1_000n, gasLimit: 1_000_000n }), // every frame kind
      // A full-width word (every byte set) through CALLDATALOAD, SSTORE, MSTORE and a log of that memory.
      signedTx(lean, { from: 2, nonce: 0n, to: store, data: word(FULL_WORD), gasLimit: 100_000n }),
      signedTx(lean, { from: 2, nonce: 1n, to: store, data: word(0n), gasLimit: 100_000n }), // slot cleared: refund
      signedTx(lean, { from: 3, nonce: 0n, to: reverter, gasLimit: 100_000n }), // reverts
      signedTx(lean, { from: 4, nonce: 0n, to: loop, gasLimit: 60_000n }), // out of gas
      signedTx(lean, { from: 5, nonce: 0n, to: driver, value: 1n, gasLimit: 120_000n }), // runs out of gas inside
      signedTx(lean, { from: 6, nonce: 0n, to: new Uint8Array(20).fill(0x77), value: 5n }), // plain transfer
    ]);
    expect(libraryFrames).toHaveBeenCalled();
    expect(calls.rejected).toEqual([]);
    expect(calls.receipts.map((r) => r.status)).toEqual([1, 1, 1, 0, 0, 0, 1]);
    expect(calls.receipts[0]!.logs.length).toBeGreaterThan(1);
    expect(bytesToHex(calls.receipts[1]!.logs[0]!.data)).toBe(bytesToHex(word(FULL_WORD)));
    // A block of one call, as automine seals them, on the state the previous block left (its VM kept).
    const one = await mineAndReplay([
      signedTx(lean, { from: 1, nonce: 1n, to: driver, value: 7n, gasLimit: 1_000_000n }),
    ]);
    expect(one.receipts[0]!.status).toBe(1);
  });
});

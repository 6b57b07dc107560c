/**
 * Await-free EVM steps (src/chain/exec/sync-step.ts): the fixed-gas steps of a call run without a promise, and the
 * outcomes stay the library's: a value returned after a jump, a jump to a non-JUMPDEST refused, an endless loop of
 * fixed-gas steps ended out of gas with all its gas spent.
 */
import { bytesToBigInt, hexToBytes } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { callDeadlineInstalled } from '../../../src/chain/exec/call-deadline.js';
import { stepCounts } from '../../../src/chain/exec/sync-step.js';
import { mine, openDevChain, signedTx, tempDir } from './fixtures.js';

/** Init code that returns the runtime that follows it (at most 255 bytes). */
const deploy = (runtime: string) => {
  const size = (runtime.length / 2).toString(16).padStart(2, '0');
  return hexToBytes(`0x60${size}600c60003960${size}6000f3${runtime}`);
};
/** PUSH1 4, JUMP, INVALID, JUMPDEST, then return the word 42. */
const returns42 = '600456fe5b602a60005260206000f3';
/** PUSH1 3, JUMP (3 is INVALID, not a JUMPDEST). */
const badJump = '600356fe5b';
/** JUMPDEST, PUSH1 0, JUMP: forever, 3 + 8 + 1 gas a round. */
const endless = '5b600056';

let chain: Blockchain;
let dir: { dir: string; remove: () => void };
let contracts: Uint8Array[];

beforeAll(async () => {
  dir = tempDir('sync-step-');
  chain = await openDevChain(dir.dir);
  const txs = [returns42, badJump, endless].map((code, i) =>
    signedTx(chain, { from: 0, nonce: BigInt(i), data: deploy(code), gasLimit: 200_000n }),
  );
  const { block } = await mine(chain, txs);
  contracts = (await chain.getReceipts(block.hash()))!.map((r) => r.contractAddress!);
});

afterAll(async () => {
  await chain.close();
  dir.remove();
});

describe('await-free EVM steps', () => {
  it('run the fixed-gas steps of a call without the library, with the same answer', async () => {
    expect(await callDeadlineInstalled).toBe(true);
    const before = stepCounts();
    const result = await chain.call('latest', { to: contracts[0]! });
    expect(result?.error).toBeUndefined();
    expect(bytesToBigInt(result!.returnData)).toBe(42n);
    const after = stepCounts();
    // PUSH1 JUMP JUMPDEST PUSH1 PUSH1 · PUSH1 PUSH1 run here, and on a call VM MSTORE and RETURN too (their memory
    // gas computed without a promise, call-opcodes.ts; RETURN ends the frame without a throw, lean-flow-opcodes.ts).
    expect(after.inline - before.inline).toBe(9);
    expect(after.library - before.library).toBe(0);
  });

  it('refuses a jump to a byte that is not a JUMPDEST', async () => {
    const result = await chain.call('latest', { to: contracts[1]! });
    expect(result?.error).toMatch(/^invalid JUMP/);
  });

  it('ends an endless loop of fixed-gas steps out of gas, all its gas spent', async () => {
    const result = await chain.call('latest', { to: contracts[2]!, gas: 100_000n });
    expect(result?.error).toMatch(/out of gas/);
    expect(result!.gasUsed).toBe(100_000n);
  });
});

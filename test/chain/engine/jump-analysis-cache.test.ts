/**
 * The jump-destination analysis cache (src/chain/exec/jump-analysis-cache.ts): installed on this @ethereumjs/evm,
 * a contract's analysis runs once and later calls reuse it, and answers stay the same — a valid jump lands, a jump
 * to a non-JUMPDEST fails every time.
 */
import { bytesToBigInt, hexToBytes } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { jumpAnalysisCacheInstalled, jumpAnalysisCounts } from '../../../src/chain/exec/jump-analysis-cache.js';
import { mine, openDevChain, signedTx, tempDir } from './fixtures.js';

/** PUSH1 dest, JUMP, INVALID, JUMPDEST, then return the word 42. dest 4 is the JUMPDEST; dest 3 is INVALID. */
const runtime = (dest: number) => `60${dest.toString(16).padStart(2, '0')}56fe5b602a60005260206000f3`;
/** Init code that returns the 15-byte runtime that follows it. */
const deployCode = (dest: number) => hexToBytes(`0x600f600c600039600f6000f3${runtime(dest)}`);

let chain: Blockchain;
let dir: { dir: string; remove: () => void };
let good: Uint8Array;
let bad: Uint8Array;

beforeAll(async () => {
  dir = tempDir('jump-cache-');
  chain = await openDevChain(dir.dir);
  const txs = [4, 3].map((dest, i) =>
    signedTx(chain, { from: 0, nonce: BigInt(i), data: deployCode(dest), gasLimit: 200_000n }),
  );
  const { block } = await mine(chain, txs);
  const receipts = (await chain.getReceipts(block.hash()))!;
  [good, bad] = receipts.map((r) => r.contractAddress!);
});

afterAll(async () => {
  await chain.close();
  dir.remove();
});

describe('jump-destination analysis cache', () => {
  it('is installed on this version of @ethereumjs/evm', async () => {
    expect(await jumpAnalysisCacheInstalled).toBe(true);
  });

  it('analyses a contract once and reuses the analysis, with the same answers', async () => {
    const first = await chain.call('latest', { to: good });
    expect(first?.error).toBeUndefined();
    expect(bytesToBigInt(first!.returnData)).toBe(42n);
    const before = jumpAnalysisCounts();
    for (let i = 0; i < 5; i++) {
      const again = await chain.call('latest', { to: good });
      expect(bytesToBigInt(again!.returnData)).toBe(42n);
      expect(again!.gasUsed).toBe(first!.gasUsed);
    }
    const after = jumpAnalysisCounts();
    expect(after.analysed).toBe(before.analysed);
    expect(after.reused - before.reused).toBe(5);
  });

  it('keeps refusing a jump to a byte that is not a JUMPDEST', async () => {
    for (let i = 0; i < 3; i++) {
      const result = await chain.call('latest', { to: bad });
      expect(result?.error).toMatch(/^invalid JUMP/);
    }
  });
});

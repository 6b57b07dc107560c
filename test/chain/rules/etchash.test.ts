import { describe, expect, it } from 'vitest';
import { etc, mordor } from '../../../src/chain/networks/index.js';
import { etchashEpoch, etchashEpochLength, etchashSeedRounds } from '../../../src/chain/rules/index.js';

describe('ECIP-1099 epochs', () => {
  it('halve the epoch number at activation (mainnet 390 → 195, Mordor 84 → 42)', () => {
    const main = etc.pow.ecip1099Block;
    expect(etchashEpoch(11_699_999n, main)).toBe(389n);
    expect(etchashEpoch(11_700_000n, main)).toBe(195n);
    expect(etchashEpochLength(11_700_000n, main)).toBe(60_000n);
    expect(etchashEpoch(2_519_999n, mordor.pow.ecip1099Block)).toBe(83n);
    expect(etchashEpoch(2_520_000n, mordor.pow.ecip1099Block)).toBe(42n);
  });

  it('derive the seed from the epoch start so seeds do not repeat (2·epoch rounds after activation)', () => {
    expect(etchashSeedRounds(0n, null)).toBe(0n);
    expect(etchashSeedRounds(30_000n, null)).toBe(1n);
    expect(etchashSeedRounds(11_700_000n, etc.pow.ecip1099Block)).toBe(390n);
    expect(etchashSeedRounds(2_520_000n, mordor.pow.ecip1099Block)).toBe(84n);
    expect(etchashSeedRounds(59_999n, 0n)).toBe(0n);
    expect(etchashSeedRounds(60_000n, 0n)).toBe(2n);
  });
});

import { describe, expect, it } from 'vitest';
import type { BlockHeader } from '@ethereumjs/block';
import { planBlocks } from './simulate-plan.js';
import { SimulateError } from './simulate-types.js';

const base = { number: 10n, timestamp: 1000n } as BlockHeader;
const stopOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (err) {
    if (err instanceof SimulateError) return err.stop;
    throw err;
  }
  return undefined;
};

describe('planBlocks (execution-apis default block values)', () => {
  it('numbers blocks from the base + 1, 12 s apart, and fills a gap with empty blocks', () => {
    const plan = planBlocks(base, [{ calls: [] }, { env: { number: 14n }, calls: [] }], 256);
    expect(plan.map((p) => [p.number, p.timestamp, p.input !== undefined])).toEqual([
      [11n, 1012n, true],
      [12n, 1024n, false],
      [13n, 1036n, false],
      [14n, 1048n, true],
    ]);
  });

  it('refuses numbers and times that do not rise, and more blocks than the limit, gaps counted', () => {
    expect(stopOf(() => planBlocks(base, [{ env: { number: 10n }, calls: [] }], 256))).toBe('blockNumberOrder');
    expect(stopOf(() => planBlocks(base, [{ env: { timestamp: 1000n }, calls: [] }], 256))).toBe('blockTimestampOrder');
    expect(stopOf(() => planBlocks(base, [{ env: { number: 13n }, calls: [] }], 2))).toBe('clientLimit');
    expect(stopOf(() => planBlocks(base, [{ env: { number: 12n }, calls: [] }], 2))).toBeUndefined();
  });
});

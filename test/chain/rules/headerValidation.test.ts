import { createBlockHeader, type BlockHeader } from '@ethereumjs/block';
import { describe, expect, it } from 'vitest';
import { dev, mordor } from '../../../src/chain/networks/index.js';
import {
  etcRules,
  evmRulesAt,
  expectedDifficulty,
  gasLimitBounds,
  headerErrors,
  isGasLimitValid,
  MAX_GAS_LIMIT,
  nextGasLimit,
  uncleErrors,
  validateHeader,
  type HeaderLike,
} from '../../../src/chain/rules/index.js';

const rules = etcRules(mordor);
const common = evmRulesAt(mordor, 1_000_000n);

const parent: BlockHeader = createBlockHeader(
  { number: 1_000_000n, timestamp: 1_600_000_000n, difficulty: 1_000_000_000n, gasLimit: 8_000_000n, gasUsed: 21_000n },
  { common },
);

function child(overrides: Partial<HeaderLike> = {}): HeaderLike {
  const timestamp = overrides.timestamp ?? parent.timestamp + 13n;
  return {
    parentHash: parent.hash(),
    uncleHash: parent.uncleHash,
    number: parent.number + 1n,
    timestamp,
    difficulty: expectedDifficulty(rules, parent, timestamp),
    gasLimit: parent.gasLimit,
    gasUsed: 0n,
    extraData: new Uint8Array(32),
    ...overrides,
  };
}

const codes = (header: HeaderLike, now?: bigint) => headerErrors(rules, header, parent, now).map((e) => e.code);

describe('header validation against the parent', () => {
  it('accepts a well-formed child', () => {
    expect(codes(child(), parent.timestamp + 13n)).toEqual([]);
    expect(() => validateHeader(rules, child(), parent)).not.toThrow();
  });

  it('reports each broken rule', () => {
    expect(codes(child({ parentHash: new Uint8Array(32) }))).toEqual(['wrong-parent-hash']);
    expect(codes(child({ number: parent.number + 2n }))).toContain('wrong-number');
    expect(codes(child({ timestamp: parent.timestamp }))).toEqual(['timestamp-not-after-parent']);
    expect(codes(child({ timestamp: parent.timestamp + 100n }), parent.timestamp + 84n)).toEqual([
      'timestamp-in-future',
    ]);
    expect(codes(child({ timestamp: parent.timestamp + 100n }), parent.timestamp + 85n)).toEqual([]);
    expect(codes(child({ extraData: new Uint8Array(33) }))).toEqual(['extra-data-too-long']);
    expect(codes(child({ gasLimit: parent.gasLimit + parent.gasLimit / 1024n }))).toEqual(['gas-limit-out-of-bounds']);
    expect(codes(child({ gasLimit: parent.gasLimit + parent.gasLimit / 1024n - 1n }))).toEqual([]);
    expect(codes(child({ gasUsed: parent.gasLimit + 1n }))).toEqual(['gas-used-above-limit']);
    expect(codes(child({ difficulty: expectedDifficulty(rules, parent, parent.timestamp + 13n) + 1n }))).toEqual([
      'wrong-difficulty',
    ]);
    expect(() => validateHeader(rules, child({ extraData: new Uint8Array(40) }), parent)).toThrow(
      /extraData is 40 bytes/,
    );
  });

  it('checks an @ethereumjs/block header directly', () => {
    const data = child();
    const header = createBlockHeader({ ...data, coinbase: undefined }, { common });
    expect(headerErrors(rules, header, parent)).toEqual([]);
    const devHeader = createBlockHeader(
      { number: 1n, timestamp: 1n, difficulty: 2n, gasLimit: 30_000_000n },
      { common: evmRulesAt(dev, 1n) },
    );
    expect(expectedDifficulty(etcRules(dev), devHeader, 2n)).toBe(2n);
  });

  it('refuses a gas limit above 2^63 − 1 and names the rule, even where the 1/1024 step allows it', () => {
    expect(MAX_GAS_LIMIT).toBe(9_223_372_036_854_775_807n);
    const highParent = createBlockHeader({ ...child({ gasLimit: MAX_GAS_LIMIT }), coinbase: undefined }, { common });
    const highChild = (gasLimit: bigint): HeaderLike => ({
      ...child(),
      parentHash: highParent.hash(),
      number: highParent.number + 1n,
      timestamp: highParent.timestamp + 13n,
      difficulty: expectedDifficulty(rules, highParent, highParent.timestamp + 13n),
      gasLimit,
    });
    expect(headerErrors(rules, highChild(MAX_GAS_LIMIT), highParent)).toEqual([]);
    const [error, ...others] = headerErrors(rules, highChild(MAX_GAS_LIMIT + 1n), highParent);
    expect(others).toEqual([]);
    expect(error?.code).toBe('gas-limit-above-max');
    expect(error?.message).toBe(
      'gas limit 9223372036854775808 exceeds the maximum 2^63 − 1 = 9223372036854775807 (header rule gas-limit-above-max)',
    );
    // Far above the parent: both rules break, and the cap is the one reported first.
    expect(codes(child({ gasLimit: 2n ** 64n }))).toEqual(['gas-limit-above-max', 'gas-limit-out-of-bounds']);
  });

  it('limits uncles to two, 1..6 generations back', () => {
    expect(uncleErrors(rules, 100n, [99n, 94n])).toEqual([]);
    expect(uncleErrors(rules, 100n, [99n, 98n, 97n])).toHaveLength(1);
    expect(uncleErrors(rules, 100n, [93n])).toHaveLength(1);
    expect(uncleErrors(rules, 100n, [100n])).toHaveLength(1);
  });
});

describe('gas limit bounds', () => {
  it('allow a step strictly below parent/1024 and never under 5000', () => {
    expect(isGasLimitValid(30_000_000n, 30_000_000n)).toBe(true);
    // 30,000,000 / 1024 = 29,296 (integer division): the step must stay below it.
    expect(isGasLimitValid(30_000_000n + 29_295n, 30_000_000n)).toBe(true);
    expect(isGasLimitValid(30_000_000n - 29_295n, 30_000_000n)).toBe(true);
    expect(isGasLimitValid(30_000_000n + 29_296n, 30_000_000n)).toBe(false);
    expect(isGasLimitValid(30_000_000n - 29_296n, 30_000_000n)).toBe(false);
    expect(isGasLimitValid(4_999n, 5_000n)).toBe(false);
    expect(gasLimitBounds(30_000_000n)).toEqual({ min: 30_000_000n - 29_295n, max: 30_000_000n + 29_295n });
    expect(nextGasLimit(8_000_000n, 30_000_000n)).toBe(8_000_000n + 7_811n);
    expect(nextGasLimit(30_000_000n, 30_000_000n)).toBe(30_000_000n);
    expect(isGasLimitValid(nextGasLimit(8_000_000n, 1n), 8_000_000n)).toBe(true);
  });
});

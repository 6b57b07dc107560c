import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from '../src/index.js';

describe('toHex', () => {
  it('writes quantities as the node does: lowercase, no leading zeros, 0x0 for zero', () => {
    expect(toHex(1n)).toBe('0x1');
    expect(toHex(0n)).toBe('0x0');
    expect(toHex(0)).toBe('0x0');
    expect(toHex(255)).toBe('0xff');
    expect(toHex(10n ** 18n)).toBe('0xde0b6b3a7640000');
    expect(toHex(2n ** 256n - 1n)).toBe(`0x${'f'.repeat(64)}`);
  });

  it('refuses what is not a quantity', () => {
    expect(() => toHex(-1n)).toThrow(RangeError);
    expect(() => toHex(1.5)).toThrow(/not a safe integer; pass a bigint/);
    expect(() => toHex(2 ** 53)).toThrow(RangeError);
  });
});

describe('fromHex', () => {
  it('reads quantities and byte strings', () => {
    expect(fromHex('0x1')).toBe(1n);
    expect(fromHex('0x0')).toBe(0n);
    expect(fromHex('0xDE0B6B3A7640000')).toBe(10n ** 18n);
    expect(fromHex(`0x${'0'.repeat(63)}2a`)).toBe(42n);
  });

  it('round-trips with toHex', () => {
    for (const n of [0n, 1n, 15n, 16n, 2n ** 64n, 2n ** 255n + 7n]) expect(fromHex(toHex(n))).toBe(n);
  });

  it('refuses what is not 0x-prefixed hex', () => {
    for (const bad of ['0x', '1', '0xg', ' 0x1', '0x1 ', '-0x1', ''])
      expect(() => fromHex(bad), bad).toThrow(TypeError);
    expect(() => fromHex(1 as unknown as string)).toThrow(/is not 0x-prefixed hex/);
  });
});

import type { Block } from '@ethereumjs/block';
import { describe, expect, it } from 'vitest';
import { ReadAhead } from './read-ahead.js';

/** A fake block: only its number matters here. */
const blockOf = (n: number) => ({ n }) as unknown as Block;
const numberOf = (b: Block | undefined) => (b as unknown as { n: number } | undefined)?.n;

/** A source of `count` numbers that records how far it was read and whether it was closed. */
function source(count: number) {
  const state = { read: 0, closed: false };
  async function* gen(): AsyncGenerator<number> {
    try {
      for (let i = 1; i <= count; i++) {
        state.read = i;
        yield i;
      }
    } finally {
      state.closed = true;
    }
  }
  return { state, gen: gen() };
}

/** Checks that settle only when the test says so. */
function gatedChecks() {
  const gates: Array<{ blocks: number[]; open: () => void }> = [];
  const check = (blocks: readonly Block[]) =>
    new Promise<void>((open) => gates.push({ blocks: blocks.map((b) => numberOf(b)!), open }));
  return { gates, check };
}

const turns = async (n = 20) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('ReadAhead: the history import window', () => {
  it('reads no further than its window ahead of the blocks handed out', async () => {
    const { state, gen } = source(1000);
    const ahead = new ReadAhead({
      source: gen,
      decode: blockOf,
      check: async () => {},
      forget: () => {},
      window: 50,
      chunk: 16,
    });
    await turns();
    expect(state.read).toBeLessThanOrEqual(51);
    expect(ahead.held).toBe(50);
    for (let i = 1; i <= 30; i++) expect(numberOf(await ahead.next())).toBe(i);
    await turns();
    expect(state.read).toBeLessThanOrEqual(81);
    expect(ahead.held).toBeLessThanOrEqual(50);
    await ahead.close();
  });

  it('hands a block out only once the checks of its chunk are done', async () => {
    const { gen } = source(10);
    const { gates, check } = gatedChecks();
    const ahead = new ReadAhead({ source: gen, decode: blockOf, check, forget: () => {}, chunk: 4 });
    let first: number | undefined;
    const next = ahead.next().then((b) => {
      first = numberOf(b);
    });
    await turns();
    expect(gates.length).toBeGreaterThan(0);
    expect(first).toBeUndefined();
    gates[0].open();
    await next;
    expect(first).toBe(1);
    for (const g of gates) g.open();
    await ahead.close();
  });

  it('stopped, it closes the file, holds nothing, and forgets the checks of blocks never handed out', async () => {
    const { state, gen } = source(1000);
    const { gates, check } = gatedChecks();
    const forgotten: number[] = [];
    const ahead = new ReadAhead({
      source: gen,
      decode: blockOf,
      check,
      forget: (blocks) => forgotten.push(...blocks.map((b) => numberOf(b)!)),
      window: 100,
      chunk: 16,
    });
    const first = ahead.next();
    await turns();
    gates[0].open();
    expect(numberOf(await first)).toBe(1);
    const checked = gates.flatMap((g) => g.blocks);
    await ahead.close();
    expect(state.closed).toBe(true);
    expect(ahead.held).toBe(0);
    // The first chunk's checks were done: its other blocks are forgotten at once; the rest once their checks end.
    expect(forgotten).toEqual(gates[0].blocks.slice(1));
    for (const g of gates) g.open();
    await turns();
    expect(forgotten.sort((a, b) => a - b)).toEqual(checked.filter((n) => n !== 1));
  });

  it('a block that cannot be decoded fails the import after the blocks before it', async () => {
    const { gen } = source(20);
    const ahead = new ReadAhead({
      source: gen,
      decode: (n: number) => {
        if (n === 7) throw new Error('block 7 cannot be decoded');
        return blockOf(n);
      },
      check: async () => {},
      forget: () => {},
    });
    for (let i = 1; i <= 6; i++) expect(numberOf(await ahead.next())).toBe(i);
    await expect(ahead.next()).rejects.toThrow('block 7 cannot be decoded');
    await ahead.close();
  });

  it('ends with the file', async () => {
    const { gen } = source(3);
    const ahead = new ReadAhead({ source: gen, decode: blockOf, check: async () => {}, forget: () => {} });
    const got = [await ahead.next(), await ahead.next(), await ahead.next(), await ahead.next()].map(numberOf);
    expect(got).toEqual([1, 2, 3, undefined]);
    await ahead.close();
  });
});

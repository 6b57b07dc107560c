import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { emptyObjectArray, mapPacked } from './packed-map.js';

/**
 * V8's own verdicts, through its natives syntax (parsed only in functions compiled after the flag is set):
 * whether two arrays share a map, and a producer run once interpreted and once optimised by TurboFan.
 */
setFlagsFromString('--allow-natives-syntax');
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b);') as (a: unknown, b: unknown) => boolean;
const interpretedAndOptimised = new Function(
  'produce',
  'input',
  `const first = produce(input);
   %PrepareFunctionForOptimization(produce);
   produce(input);
   produce(input);
   %OptimizeFunctionOnNextCall(produce);
   const optimised = produce(input);
   return [first, optimised, %GetOptimizationStatus(produce)];`,
) as <T>(produce: (input: number[]) => T[], input: number[]) => [T[], T[], number];
/** %GetOptimizationStatus's bit for "optimised by TurboFan" (V8 11: bit 6). */
const TURBOFANNED = 1 << 6;

describe('mapPacked', () => {
  it("gives Array.prototype.map's elements, index included, for empty, short and long inputs", () => {
    for (const xs of [[], [7], Array.from({ length: 1000 }, (_, i) => i * 3)]) {
      const f = (x: number, i: number) => ({ x, i });
      expect(mapPacked(xs, f)).toEqual(xs.map(f));
    }
  });

  it('returns arrays of one map whether its caller runs interpreted or optimised, empty or not', () => {
    const input = [1, 2, 3, 4, 5];
    // (`xs.map` in place of mapPacked fails here on Node 20: the builtin's result is packed, an inlined map's holey.)
    const viaPacked = (xs: number[]) => mapPacked(xs, (x) => ({ x }));
    const [first, optimised, status] = interpretedAndOptimised(viaPacked, input);
    expect(status & TURBOFANNED).not.toBe(0);
    expect(sameMap(first, optimised)).toBe(true);
    expect(sameMap(first, viaPacked([]))).toBe(true);
  });

  it("gives a fresh instance's field the map its predecessor's array has after holding objects", () => {
    class Journal {
      readonly entries = emptyObjectArray<{ n: number }>();
    }
    const old = new Journal();
    for (let i = 0; i < 100; i++) old.entries.push({ n: i });
    old.entries.length = 0;
    expect(sameMap(new Journal().entries, old.entries)).toBe(true);
    expect(new Journal().entries).toEqual([]);
  });
});

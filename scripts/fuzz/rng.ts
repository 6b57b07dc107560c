/**
 * A small seeded PRNG (mulberry32): the fuzzer must replay the same cases for the same seed, and each case is
 * derived from (seed, index) alone so that the order in which concurrent workers draw cases does not matter.
 */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** The generator for case `index` of a run seeded with `seed`. */
  static forCase(seed: number, index: number): Rng {
    // Mix the two so neighbouring indexes do not start from neighbouring states.
    return new Rng(Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35));
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  hex(digits: number): string {
    let out = '';
    for (let i = 0; i < digits; i++) out += '0123456789abcdef'[this.int(0, 15)];
    return out;
  }
}

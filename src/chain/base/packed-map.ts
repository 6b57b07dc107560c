/**
 * `xs.map(f)` for arrays that one hot function builds and another reads, as one element kind in every tier.
 *
 * `Array.prototype.map` returns a packed array from the builtin but a holey one once TurboFan inlines it into an
 * optimised caller, so an array's map changes under its reader the moment its producer is optimised: a reader
 * optimised first (the import, the assembly) is then deoptimised ("wrong map") and compiled again. In the row of
 * 200 transfers sent and mined, V8 did that to importBlock, assembleOn and the runner's finish in the node's first
 * ~1,000 blocks (bench/results/transfer-server-time.md, round 15). An array grown by `push` from a literal keeps
 * the element kind its allocation site learned, empty or not, interpreted or optimised.
 */
export function mapPacked<T, U>(xs: readonly T[], f: (x: T, i: number) => U): U[] {
  const out: U[] = [];
  for (let i = 0; i < xs.length; i++) out.push(f(xs[i]!, i));
  return out;
}

/**
 * An empty array already of the object element kind, for a field of a long-lived object that hot code fills and
 * empties. A `[]` in a constructor or field initializer runs too rarely to have V8's allocation feedback, so each new
 * instance's array starts with small-integer elements, and code optimised on the old instance's array (objects) is
 * deoptimised by the first fresh one: the miner's flat state renewed after 30M gas (warm-state.ts) did that to the
 * journal's `checkpoint` and `putAccount` (bench/results/transfer-server-time.md, round 15).
 */
export function emptyObjectArray<T extends object>(): T[] {
  const out: (T | undefined)[] = [undefined];
  out.pop();
  return out as T[];
}

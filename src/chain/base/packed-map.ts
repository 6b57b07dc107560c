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

/**
 * A trie key as nibbles, one number per half-byte, without the terminator the library's exported
 * `bytesToNibbles` appends (its terminator-free one is internal to @ethereumjs/mpt).
 */
export function toNibbles(key: Uint8Array): number[] {
  const nibbles = new Array<number>(key.length * 2);
  for (let i = 0; i < key.length; i++) {
    nibbles[2 * i] = key[i] >> 4;
    nibbles[2 * i + 1] = key[i] & 0x0f;
  }
  return nibbles;
}

/** Bytes from an even number of nibbles (the inverse of toNibbles). */
export function fromNibbles(nibbles: readonly number[]): Uint8Array {
  const out = new Uint8Array(nibbles.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = (nibbles[2 * i]! << 4) | nibbles[2 * i + 1]!;
  return out;
}

/** Compares `path` with the same-length prefix of `target`. */
export function comparePrefix(path: readonly number[], target: readonly number[]): number {
  for (let i = 0; i < path.length && i < target.length; i++) if (path[i] !== target[i]) return path[i]! - target[i]!;
  return 0;
}

/** Key order of two nibble paths (a prefix first). */
export function compareNibbles(a: readonly number[], b: readonly number[]): number {
  const c = comparePrefix(a, b);
  return c !== 0 ? c : a.length - b.length;
}

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

/**
 * 256-bit stack words to and from big-endian bytes through one 32-byte scratch buffer and a DataView, four 64-bit
 * limbs at a time: @ethereumjs/evm goes through hex strings both ways (`bigIntToBytes`, `BigInt(bytesToHex(...))`)
 * and pads with spread arrays. Shared by the lean opcodes (call-opcodes.ts and the lean-*-opcodes.ts files).
 */

/** Valid until the next call of any function here. */
export const scratch = new Uint8Array(32);
const view = new DataView(scratch.buffer);
const MASK_64 = 0xffffffffffffffffn;

/** `word` (0 ≤ word < 2^256) as 32 big-endian bytes, in the scratch buffer (valid until the next call). */
export function wordBytes(word: bigint): Uint8Array {
  if (word <= MASK_64) {
    view.setBigUint64(0, 0n);
    view.setBigUint64(8, 0n);
    view.setBigUint64(16, 0n);
    view.setBigUint64(24, word);
    return scratch;
  }
  view.setBigUint64(0, word >> 192n);
  view.setBigUint64(8, (word >> 128n) & MASK_64);
  view.setBigUint64(16, (word >> 64n) & MASK_64);
  view.setBigUint64(24, word & MASK_64);
  return scratch;
}

/** The big-endian number in the scratch buffer. */
export function scratchWord(): bigint {
  const high = view.getBigUint64(0) | view.getBigUint64(8) | view.getBigUint64(16);
  if (high === 0n) return view.getBigUint64(24);
  return (
    (view.getBigUint64(0) << 192n) |
    (view.getBigUint64(8) << 128n) |
    (view.getBigUint64(16) << 64n) |
    view.getBigUint64(24)
  );
}

/** `bytes` (at most 32) as a big-endian number, as the library's `bytesToBigInt`. */
export function bytesWord(bytes: Uint8Array): bigint {
  scratch.fill(0);
  scratch.set(bytes, 32 - bytes.length);
  return scratchWord();
}

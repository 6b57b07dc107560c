/**
 * `bigIntToUnpaddedBytes` without the library's checked hex parse (a hex string and a regular expression, ~0.3 µs and
 * ~400 bytes of garbage a call): several calls for each block of a bulk run (a header's number, timestamp and
 * difficulty, a total difficulty, an RLP length, the coinbase's balance), two for each account of a genesis build
 * (its nonce and balance).
 */
import { bigIntToUnpaddedBytes } from '@ethereumjs/util';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const fresh = (length: number) => new Uint8Array(length);

/** `allocate` gives the output's bytes (default a fresh array; a bulk write's arena, see db/record-arena.ts). */
export function unpaddedBytes(value: bigint, allocate: (length: number) => Uint8Array = fresh): Uint8Array {
  if (value < 0n) return bigIntToUnpaddedBytes(value);
  if (value <= MAX_SAFE) return unpaddedNumberBytes(Number(value), allocate);
  // 48-bit limbs, lowest first: two bigint operations per six bytes instead of a hex string and two copies (an
  // account balance in wei is nearly always above 2^53: a bulk run's coinbase leaf encodes one every block).
  const limbs: number[] = [];
  for (let rest = value; rest > 0n; rest >>= 48n) limbs.push(Number(rest & LIMB_MASK));
  const top = limbs.length - 1;
  const topBytes = byteLength(limbs[top]);
  const out = allocate(top * 6 + topBytes);
  let at = out.length;
  for (let i = 0; i < top; i++) at = writeBytes(out, at, limbs[i], 6);
  writeBytes(out, at, limbs[top], topBytes);
  return out;
}

const LIMB_MASK = 0xffff_ffff_ffffn;

function byteLength(n: number): number {
  let size = 0;
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) size++;
  return size;
}

/** Writes the low `size` bytes of `n` big-endian so that they end at `end`; returns where they start. */
function writeBytes(out: Uint8Array, end: number, n: number, size: number): number {
  for (let i = 1; i <= size; i++) {
    out[end - i] = n % 256;
    n = Math.floor(n / 256);
  }
  return end - size;
}

/** The same for a non-negative safe integer. */
export function unpaddedNumberBytes(n: number, allocate: (length: number) => Uint8Array = fresh): Uint8Array {
  let size = 0;
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) size++;
  const out = allocate(size);
  for (let i = size - 1; i >= 0; i--) {
    out[i] = n % 256;
    n = Math.floor(n / 256);
  }
  return out;
}

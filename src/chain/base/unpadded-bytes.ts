/**
 * `bigIntToUnpaddedBytes` without the library's checked hex parse (a hex string and a regular expression, ~0.3 µs and
 * ~400 bytes of garbage a call): several calls for each block of a bulk run (a header's number, timestamp and
 * difficulty, a total difficulty, an RLP length), two for each account of a genesis build (its nonce and balance).
 */
import { bigIntToUnpaddedBytes } from '@ethereumjs/util';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export function unpaddedBytes(value: bigint): Uint8Array {
  if (value < 0n) return bigIntToUnpaddedBytes(value);
  if (value <= MAX_SAFE) return unpaddedNumberBytes(Number(value));
  const hex = value.toString(16);
  return Uint8Array.from(Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex'));
}

/** The same for a non-negative safe integer. */
export function unpaddedNumberBytes(n: number): Uint8Array {
  let size = 0;
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) size++;
  const out = new Uint8Array(size);
  for (let i = size - 1; i >= 0; i--) {
    out[i] = n % 256;
    n = Math.floor(n / 256);
  }
  return out;
}

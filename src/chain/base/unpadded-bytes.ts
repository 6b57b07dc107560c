/**
 * `bigIntToUnpaddedBytes` for the small values block records hold (a header's number, timestamp and difficulty, a
 * total difficulty, an RLP length): the library goes through a hex string and a regular expression, ~0.3 µs and
 * ~400 bytes of garbage a call, several calls for each block of a bulk run. Larger values go to the library.
 */
import { bigIntToUnpaddedBytes } from '@ethereumjs/util';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export function unpaddedBytes(value: bigint): Uint8Array {
  if (value < 0n || value > MAX_SAFE) return bigIntToUnpaddedBytes(value);
  return unpaddedNumberBytes(Number(value));
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

/**
 * Numbers as retesteth sends them: JSON numbers, decimal strings ("1") or hex with any number of leading
 * zeros ("0x01", "0x"). The test namespace accepts all three everywhere it takes a number.
 */
export class TestQuantityError extends Error {}

export function testQuantity(value: number | string | bigint): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0)
      throw new TestQuantityError(`${value} is not a non-negative integer`);
    return BigInt(value);
  }
  if (/^0x[0-9a-fA-F]*$/.test(value)) return value.length === 2 ? 0n : BigInt(value);
  if (/^[0-9]+$/.test(value)) return BigInt(value);
  throw new TestQuantityError(`"${value}" is neither a decimal nor a 0x-prefixed hex number`);
}

/** A quantity that must fit a JS number (block counts, timestamps handed to the miner). */
export function testQuantityNumber(value: number | string | bigint, what: string): number {
  const n = testQuantity(value);
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new TestQuantityError(`${what} ${n} is too large`);
  return Number(n);
}

/** Hex bytes with or without 0x, odd length allowed ("0x0" is one zero byte). */
export function testBytes(hex: string): Uint8Array {
  const digits = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
  if (!/^[0-9a-fA-F]*$/.test(digits)) throw new TestQuantityError(`"${hex}" is not hex`);
  return Uint8Array.from(Buffer.from(digits.length % 2 === 1 ? `0${digits}` : digits, 'hex'));
}

/** Big-endian bytes of a non-negative integer, left-padded to `length` (32 for storage keys and values). */
export function bigintToBytes(value: bigint, length?: number): Uint8Array {
  let hex = value.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  if (value === 0n) hex = '';
  const bytes = Uint8Array.from(Buffer.from(hex, 'hex'));
  if (length === undefined || bytes.length >= length) return bytes;
  const out = new Uint8Array(length);
  out.set(bytes, length - bytes.length);
  return out;
}

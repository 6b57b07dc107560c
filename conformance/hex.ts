/** Vector numbers carry leading zeros ("0x0186a0"); RPC answers do not. Compare values, not strings. */

export const quantity = (hex: string | number | bigint): bigint => {
  if (typeof hex !== 'string') return BigInt(hex);
  return hex === '0x' || hex === '' ? 0n : BigInt(hex);
};

export const toQuantity = (value: bigint | number): string => `0x${value.toString(16)}`;

export const sameQuantity = (a: string | bigint, b: string | bigint): boolean =>
  quantity(a as string) === quantity(b as string);

export const sameBytes = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** A 32-byte word as 0x + 64 hex digits. */
export const word = (hex: string | bigint): string =>
  `0x${quantity(hex as string)
    .toString(16)
    .padStart(64, '0')}`;

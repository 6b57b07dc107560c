/** Wire hex ↔ engine values, shared by the handlers. Inputs were already checked by the generated validators. */
import { invalidParams } from '../rpc/errors.js';

/** A JSON-RPC quantity: `0x` + lowercase hex without leading zeros (`0x0` for zero). */
export const toQuantity = (value: bigint | number): `0x${string}` => `0x${value.toString(16)}`;

export const fromQuantity = (hex: string): bigint => BigInt(hex);

/**
 * A transaction field's quantity, refused (-32602) when wider than the field: nonce and gas are 64-bit, value and
 * gas prices 256-bit. The schema's `uint` has no width (as in execution-apis); geth refuses wider numbers when it
 * decodes them, and a transaction could not carry them (signing one threw an internal error).
 */
export function fieldQuantity(hex: string, bits: 64 | 256, field: string): bigint {
  const value = BigInt(hex);
  if (value >> BigInt(bits) !== 0n) throw invalidParams(`invalid params: ${field} ${hex} is wider than ${bits} bits`);
  return value;
}

/** `0x`-prefixed hex (even length) → bytes. */
export const bytesFromHex = (hex: string): Buffer => Buffer.from(hex.slice(2), 'hex');

export const hexFromBytes = (bytes: Uint8Array): `0x${string}` =>
  `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;

/**
 * A storage slot as clients send it (0 to 32 bytes of hex: `0x`, `0x0`, `0x00`, `0x01`, 20 or 32 bytes) → the
 * 32-byte key it names: the digits read as a big-endian number, left-padded (what geth does).
 */
export function slotFromHex(hex: string): Buffer {
  return Buffer.from(hex.slice(2).padStart(64, '0'), 'hex');
}

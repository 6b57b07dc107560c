/** Wire hex ↔ engine values, shared by the handlers. Inputs were already checked by the generated validators. */

/** A JSON-RPC quantity: `0x` + lowercase hex without leading zeros (`0x0` for zero). */
export const toQuantity = (value: bigint | number): `0x${string}` => `0x${value.toString(16)}`;

export const fromQuantity = (hex: string): bigint => BigInt(hex);

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

/** Wire hex ↔ engine values, shared by the handlers. Inputs were already checked by the generated validators. */

/** A JSON-RPC quantity: `0x` + lowercase hex without leading zeros (`0x0` for zero). */
export const toQuantity = (value: bigint | number): `0x${string}` => `0x${value.toString(16)}`;

export const fromQuantity = (hex: string): bigint => BigInt(hex);

/** `0x`-prefixed hex (even length) → bytes. */
export const bytesFromHex = (hex: string): Buffer => Buffer.from(hex.slice(2), 'hex');

export const hexFromBytes = (bytes: Uint8Array): `0x${string}` =>
  `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;

/** A storage slot given as a quantity (`0x0`) or as 32 bytes → the 32-byte key both name. */
export function slotFromHex(hex: string): Buffer {
  return Buffer.from(BigInt(hex).toString(16).padStart(64, '0'), 'hex');
}

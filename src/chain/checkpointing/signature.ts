/**
 * ECIP-1097 federation signatures: secp256k1 over the raw 32-byte hash of the checkpointed block (no message
 * prefix, no re-hash), v ∈ {27, 28}. In a header a signature is the RLP list [r, s, v] of canonical integers;
 * over JSON-RPC it is the 65 bytes r ‖ s ‖ v.
 */
import { bigIntToUnpaddedBytes, bytesToBigInt, bytesToHex, setLengthLeft } from '@ethereumjs/util';
import { ecrecover, ecsignRecovered } from '../base/crypto.js';

export interface CheckpointSignature {
  readonly r: bigint;
  readonly s: bigint;
  readonly v: number;
}

/** The RLP item of a signature in a header: [r, s, v] as canonical (minimal big-endian) integers. */
export type SignatureItem = [Uint8Array, Uint8Array, Uint8Array];

const MAX_UINT256 = (1n << 256n) - 1n;

/** r ‖ s ‖ v, 65 bytes; undefined when the length is wrong. */
export function signatureFromBytes(bytes: Uint8Array): CheckpointSignature | undefined {
  if (bytes.length !== 65) return undefined;
  return { r: bytesToBigInt(bytes.subarray(0, 32)), s: bytesToBigInt(bytes.subarray(32, 64)), v: bytes[64]! };
}

export function signatureToBytes(sig: CheckpointSignature): Uint8Array {
  const out = new Uint8Array(65);
  out.set(setLengthLeft(bigIntToUnpaddedBytes(sig.r), 32), 0);
  out.set(setLengthLeft(bigIntToUnpaddedBytes(sig.s), 32), 32);
  out[64] = sig.v;
  return out;
}

export function signatureToItem(sig: CheckpointSignature): SignatureItem {
  return [bigIntToUnpaddedBytes(sig.r), bigIntToUnpaddedBytes(sig.s), bigIntToUnpaddedBytes(BigInt(sig.v))];
}

/**
 * Reads [r, s, v] from a header. Integers must be canonical (no leading zero byte), r and s at most 32 bytes and
 * v one byte: re-encoding then gives back the received bytes, so the header hash is the one its sender computed.
 */
export function signatureFromItem(item: unknown, where: string): CheckpointSignature {
  if (!Array.isArray(item) || item.length !== 3 || !item.every((x) => x instanceof Uint8Array)) {
    throw new Error(`${where} must be a list [r, s, v] of three byte strings`);
  }
  const [r, s, v] = item as SignatureItem;
  const int = (b: Uint8Array, name: string, maxBytes: number): bigint => {
    if (b.length > maxBytes) throw new Error(`${where}: ${name} is ${b.length} bytes, at most ${maxBytes} allowed`);
    if (b.length > 0 && b[0] === 0) throw new Error(`${where}: ${name} is not a canonical integer (leading zero byte)`);
    return bytesToBigInt(b);
  };
  return { r: int(r, 'r', 32), s: int(s, 's', 32), v: Number(int(v, 'v', 1)) };
}

/** The ECIP's order of signatures in a checkpoint: by r, then s, then v. */
export function compareSignatures(a: CheckpointSignature, b: CheckpointSignature): number {
  if (a.r !== b.r) return a.r < b.r ? -1 : 1;
  if (a.s !== b.s) return a.s < b.s ? -1 : 1;
  return a.v - b.v;
}

export function sortSignatures(sigs: readonly CheckpointSignature[]): CheckpointSignature[] {
  return [...sigs].sort(compareSignatures);
}

/** Signs a 32-byte block hash as a federation member does (RFC 6979, low s, v = 27 + recovery id). */
export function signCheckpoint(blockHash: Uint8Array, privateKey: Uint8Array): CheckpointSignature {
  const recovered = ecsignRecovered(blockHash, privateKey);
  return {
    r: bytesToBigInt(recovered.subarray(1, 33)),
    s: bytesToBigInt(recovered.subarray(33, 65)),
    v: 27 + recovered[0]!,
  };
}

/**
 * The 64-byte public key (uncompressed, without the 0x04 prefix) that signed `blockHash`, or undefined when the
 * signature recovers to no key (v not 27/28, r or s zero or out of range).
 */
export function recoverSigner(blockHash: Uint8Array, sig: CheckpointSignature): Uint8Array | undefined {
  if (sig.v !== 27 && sig.v !== 28) return undefined;
  if (sig.r === 0n || sig.s === 0n || sig.r > MAX_UINT256 || sig.s > MAX_UINT256) return undefined;
  try {
    return ecrecover(blockHash, BigInt(sig.v), bigIntToUnpaddedBytes(sig.r), bigIntToUnpaddedBytes(sig.s));
  } catch {
    return undefined;
  }
}

/** For messages: the signature as 0x + 130 hex digits. */
export const signatureHex = (sig: CheckpointSignature): string => bytesToHex(signatureToBytes(sig));

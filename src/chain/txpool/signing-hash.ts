/**
 * The hash a legacy transaction's signature signs, taken from the bytes the transaction arrived in.
 *
 * Recovering a sender first needs that hash, and @ethereumjs builds it by turning the decoded nonce, gas price, gas
 * and value back into bytes and RLP-encoding every field again (~30 µs per ERC-20 transfer, a tenth of admission).
 * The pool decoded the transaction from those very encodings, which the strict RLP decoder and the library's
 * no-leading-zeros checks leave canonical: the signed payload is the same six field encodings under a new list
 * header, then (EIP-155) the chain id and two empty strings. The pool's decode remembers the hash for the frozen
 * transaction, and the class's method answers it; every other transaction is hashed as before.
 */
import { RLP } from '@ethereumjs/rlp';
import { Capability, LegacyTx } from '@ethereumjs/tx';
import { bigIntToUnpaddedBytes } from '@ethereumjs/util';
import { keccak256 } from '../crypto.js';

const known = new WeakMap<LegacyTx, Uint8Array>();

/** Where the item at `at` ends (a byte string: the pool checked that every field is one). */
function itemEnd(raw: Uint8Array, at: number): number {
  const b = raw[at]!;
  if (b < 0x80) return at + 1;
  if (b <= 0xb7) return at + 1 + (b - 0x80);
  const lengthBytes = b - 0xb7;
  let length = 0;
  for (let i = 1; i <= lengthBytes; i++) length = length * 256 + raw[at + i]!;
  return at + 1 + lengthBytes + length;
}

/** An RLP list header for a payload of `length` bytes. */
function listHeader(length: number): Uint8Array {
  if (length < 56) return Uint8Array.of(0xc0 + length);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
  return Uint8Array.of(0xf7 + bytes.length, ...bytes);
}

/** keccak256 of what `tx`'s signature signs, from `raw`, the RLP list the (frozen) `tx` was decoded from. */
export function legacySigningHash(tx: LegacyTx, raw: Uint8Array): Uint8Array {
  const first = raw[0]!;
  let at = first <= 0xf7 ? 1 : 1 + (first - 0xf7);
  const fieldsStart = at;
  for (let i = 0; i < 6; i++) at = itemEnd(raw, at);
  const fields = raw.subarray(fieldsStart, at);
  const tail = tx.supports(Capability.EIP155ReplayProtection)
    ? [RLP.encode(bigIntToUnpaddedBytes(tx.common.chainId())), Uint8Array.of(0x80, 0x80)]
    : [];
  const length = fields.length + tail.reduce((n, part) => n + part.length, 0);
  const header = listHeader(length);
  const payload = new Uint8Array(header.length + length);
  payload.set(header);
  payload.set(fields, header.length);
  let offset = header.length + fields.length;
  for (const part of tail) {
    payload.set(part, offset);
    offset += part.length;
  }
  return (tx.common.customCrypto.keccak256 ?? keccak256)(payload);
}

/** Remembers `tx`'s signing hash from its raw bytes (frozen transactions only: their fields cannot change). */
export function rememberSigningHash(tx: LegacyTx, raw: Uint8Array): void {
  if (Object.isFrozen(tx)) known.set(tx, legacySigningHash(tx, raw));
}

let installed = false;

/** Idempotent: the legacy class answers a remembered hash before building it again. */
export function installRememberedSigningHash(): void {
  if (installed) return;
  installed = true;
  const build = LegacyTx.prototype.getHashedMessageToSign;
  LegacyTx.prototype.getHashedMessageToSign = function (this: LegacyTx): Uint8Array {
    return known.get(this) ?? build.call(this);
  };
}

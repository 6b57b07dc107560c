/**
 * The hash a legacy transaction's signature signs, taken from the field bytes the transaction arrived in.
 *
 * Recovering a sender first needs that hash, and @ethereumjs builds it by turning the decoded nonce, gas price, gas
 * and value back into bytes and RLP-encoding every field again with its concatenating encoder (~30 µs per ERC-20
 * transfer, a tenth of admission). The pool decoded the transaction from those very byte strings, which the RLP
 * decoder and the library's no-leading-zeros checks leave canonical: the signed payload is the first six of them,
 * then (EIP-155) the chain id and two empty strings, encoded here in one buffer. The pool's decode remembers the hash
 * for the frozen transaction, and the class's method answers it; every other transaction is hashed as before.
 */
import { LegacyTx, Capability } from '@ethereumjs/tx';
import { bigIntToUnpaddedBytes } from '@ethereumjs/util';
import { encodeRlp } from '../codec/rlp-encode.js';
import { keccak256 } from '../base/crypto.js';

const known = new WeakMap<LegacyTx, Uint8Array>();
const EMPTY = new Uint8Array(0);

/** keccak256 of what `tx`'s signature signs, from `fields`, the nine byte strings the (frozen) `tx` was decoded from. */
export function legacySigningHash(tx: LegacyTx, fields: readonly Uint8Array[]): Uint8Array {
  const signed = fields.slice(0, 6);
  if (tx.supports(Capability.EIP155ReplayProtection))
    signed.push(bigIntToUnpaddedBytes(tx.common.chainId()), EMPTY, EMPTY);
  return (tx.common.customCrypto.keccak256 ?? keccak256)(encodeRlp(signed));
}

/** Remembers `tx`'s signing hash from its field bytes (frozen transactions only: their fields cannot change). */
export function rememberSigningHash(tx: LegacyTx, fields: readonly Uint8Array[]): void {
  if (Object.isFrozen(tx)) known.set(tx, legacySigningHash(tx, fields));
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

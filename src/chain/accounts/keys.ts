/**
 * secp256k1 key handling for node-held accounts: generating and validating private keys and
 * deriving their addresses. Uses the native libsecp256k1 binding, as `src/chain/crypto.ts` does.
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { hexKey } from '../db/hex-key.js';
import { keccak256 } from '../base/crypto.js';
import { invalidPrivateKey } from './errors.js';

const require = createRequire(import.meta.url);
const secp256k1 = require('secp256k1/bindings') as typeof import('secp256k1');

export const PRIVATE_KEY_LENGTH = 32;
export const ADDRESS_LENGTH = 20;

/** A valid private key is 32 bytes in [1, n-1]; anything else is rejected with the reference's message. */
export function assertValidPrivateKey(privateKey: Uint8Array): void {
  if (privateKey.length !== PRIVATE_KEY_LENGTH || !secp256k1.privateKeyVerify(privateKey)) throw invalidPrivateKey();
}

/** A fresh key from the OS CSPRNG (rejection sampling: an out-of-range draw is astronomically rare). */
export function generatePrivateKey(): Buffer {
  for (;;) {
    const candidate = randomBytes(PRIVATE_KEY_LENGTH);
    if (secp256k1.privateKeyVerify(candidate)) return candidate;
    candidate.fill(0);
  }
}

/** Ethereum address of a 64-byte uncompressed public key (no 0x04 prefix): the last 20 bytes of its keccak-256. */
export function addressOfPublicKey(publicKey64: Uint8Array): Uint8Array {
  return keccak256(publicKey64).subarray(32 - ADDRESS_LENGTH);
}

export function addressOfPrivateKey(privateKey: Uint8Array): Uint8Array {
  assertValidPrivateKey(privateKey);
  return addressOfPublicKey(secp256k1.publicKeyCreate(privateKey, false).subarray(1));
}

/** Lowercase hex without 0x: the map key and the form used in keystore file names and JSON. */
export function addressKey(address: Uint8Array): string {
  return hexKey(address);
}

export function addressFromKey(key: string): Uint8Array {
  return new Uint8Array(Buffer.from(key, 'hex'));
}

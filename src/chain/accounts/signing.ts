/**
 * What an account key is used for: EIP-191 personal messages (personal_sign / eth_sign and their
 * recovery) and legacy EIP-155 transactions (eth_sendTransaction / personal_sendTransaction).
 */
import type { Common } from '@ethereumjs/common';
import { Capability, createLegacyTx, type LegacyTx } from '@ethereumjs/tx';
import { ecrecover, ecsignRecovered, keccak256 } from '../base/crypto.js';
import { invalidSignature } from './errors.js';
import { addressOfPublicKey } from './keys.js';

/** keccak256("\x19Ethereum Signed Message:\n" ‖ decimal length ‖ message), as geth's accounts.TextHash. */
export function personalMessageHash(message: Uint8Array): Uint8Array {
  const prefix = Buffer.from(`\x19Ethereum Signed Message:\n${message.length}`, 'utf8');
  return keccak256(Buffer.concat([prefix, message]));
}

/** 65 bytes r ‖ s ‖ v with v = 27/28, the wire form of personal_sign and eth_sign. */
export function signPersonalMessage(privateKey: Uint8Array, message: Uint8Array): Uint8Array {
  const recovered = ecsignRecovered(personalMessageHash(message), privateKey); // recid ‖ r ‖ s
  const signature = new Uint8Array(65);
  signature.set(recovered.subarray(1, 65), 0);
  signature[64] = recovered[0] + 27;
  return signature;
}

/**
 * The address that produced `signature` (r ‖ s ‖ v) over the personal-message hash of `message`.
 * v is 27/28 as signers emit it; 0/1 (the raw recovery id some wallets and hardware signers emit)
 * is accepted too, as the API document states.
 */
export function recoverPersonalMessageSigner(message: Uint8Array, signature: Uint8Array): Uint8Array {
  if (signature.length !== 65) throw invalidSignature('Invalid signature: must be 65 bytes (r ‖ s ‖ v).');
  const v = signature[64];
  if (v !== 27 && v !== 28 && v !== 0 && v !== 1)
    throw invalidSignature('Invalid signature: v must be 27, 28, 0 or 1.');
  let publicKey: Uint8Array;
  try {
    publicKey = ecrecover(
      personalMessageHash(message),
      BigInt(v < 27 ? v + 27 : v),
      signature.subarray(0, 32),
      signature.subarray(32, 64),
    );
  } catch {
    throw invalidSignature('Invalid signature: no public key recovers from it.');
  }
  return addressOfPublicKey(publicKey);
}

/** The fields of a legacy transaction before signing; the RPC layer fills defaults (nonce, gas, price) first. */
export interface UnsignedLegacyTx {
  readonly nonce: bigint;
  readonly gasPrice: bigint;
  readonly gasLimit: bigint;
  /** Absent for contract creation. */
  readonly to?: Uint8Array;
  readonly value?: bigint;
  readonly data?: Uint8Array;
}

/**
 * Signs a legacy transaction under `common`, which must be the transaction rules of the block it is
 * meant for (`txRulesAt(network, pendingBlockNumber)`): its chain id goes into the EIP-155 `v`, and its
 * `customCrypto` does the signing. Refuses a Common without EIP-155, because an unprotected
 * transaction could be replayed on other chains.
 */
export function signLegacyTransaction(privateKey: Uint8Array, fields: UnsignedLegacyTx, common: Common): LegacyTx {
  const unsigned = createLegacyTx(
    {
      nonce: fields.nonce,
      gasPrice: fields.gasPrice,
      gasLimit: fields.gasLimit,
      to: fields.to,
      value: fields.value ?? 0n,
      data: fields.data ?? new Uint8Array(0),
    },
    { common },
  );
  if (!unsigned.supports(Capability.EIP155ReplayProtection)) {
    throw new Error('EIP-155 replay protection is not active under the given chain rules');
  }
  return unsigned.sign(privateKey);
}

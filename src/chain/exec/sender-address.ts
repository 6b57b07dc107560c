/**
 * Transaction senders hashed with the Common's keccak, and remembered.
 *
 * `tx.getSenderAddress()` recovers the public key (native secp256k1 through `customCrypto`, cached on
 * frozen transactions) but then hashes it with `publicToAddress`, which always uses the pure-JS keccak
 * and is not cached: `runTx` calls it for every transaction of every block. The library offers no
 * hook for this, so the transaction classes' method is replaced once, with the same result: the last
 * 20 bytes of keccak256(public key), through `customCrypto.keccak256` when the Common has one.
 */
import {
  AccessList2930Tx,
  Blob4844Tx,
  EOACode7702Tx,
  FeeMarket1559Tx,
  LegacyTx,
  type TypedTransaction,
} from '@ethereumjs/tx';
import { Address, publicToAddress } from '@ethereumjs/util';

type SenderCache = { senderAddress?: Address };

function getSenderAddress(this: TypedTransaction): Address {
  const cache = this.cache as SenderCache;
  if (cache.senderAddress !== undefined) return cache.senderAddress;
  const publicKey = this.getSenderPublicKey();
  const keccak = this.common.customCrypto.keccak256;
  const address = new Address(keccak === undefined ? publicToAddress(publicKey) : keccak(publicKey).subarray(12));
  // Only frozen transactions cache (as the library does for the public key): their fields cannot change.
  if (Object.isFrozen(this)) cache.senderAddress = address;
  return address;
}

let installed = false;

/** Idempotent; the engine calls it before executing anything. */
export function installFastSenderAddress(): void {
  if (installed) return;
  installed = true;
  for (const cls of [LegacyTx, AccessList2930Tx, FeeMarket1559Tx, Blob4844Tx, EOACode7702Tx]) {
    (cls.prototype as { getSenderAddress: () => Address }).getSenderAddress = getSenderAddress;
  }
}

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
import { Address, bytesToHex, publicToAddress } from '@ethereumjs/util';

type SenderCache = { senderAddress?: Address };

/**
 * The dev chain's impersonated transactions (anvil_impersonateAccount): their signature is a placeholder, so their
 * sender cannot be recovered and is remembered here by transaction hash instead. Empty elsewhere, and then the
 * lookup costs nothing. Held in memory: after a restart such a transaction's sender is recovered as any other's.
 */
const impersonatedSenders = new Map<string, Address>();

export function rememberImpersonatedSender(txHash: Uint8Array, sender: Address): void {
  impersonatedSenders.set(bytesToHex(txHash), sender);
}

/** The sender of an impersonated transaction (anvil_impersonateAccount); undefined for any other. */
export function impersonatedSenderOf(tx: TypedTransaction): Address | undefined {
  if (impersonatedSenders.size === 0) return undefined;
  return impersonatedSenders.get(bytesToHex(tx.hash()));
}

/** Puts an impersonated transaction's sender in its cache, so the pool does not try to recover it; true if it was one. */
export function seedImpersonatedSender(tx: TypedTransaction): boolean {
  if (impersonatedSenders.size === 0) return false;
  const sender = impersonatedSenders.get(bytesToHex(tx.hash()));
  if (sender === undefined) return false;
  (tx.cache as SenderCache).senderAddress = sender;
  return true;
}

function getSenderAddress(this: TypedTransaction): Address {
  const cache = this.cache as SenderCache;
  if (cache.senderAddress !== undefined) return cache.senderAddress;
  if (seedImpersonatedSender(this)) return cache.senderAddress!;
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

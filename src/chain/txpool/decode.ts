/**
 * Raw bytes → a signed legacy or EIP-2930 transaction for this network, or a `TxRejectedError`
 * saying why not. The chain-id and signature-scheme checks run on the decoded RLP *before*
 * @ethereumjs/tx builds the object, because the library reports a foreign chain id as a generic
 * constructor error and we want to name both chain ids.
 */
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import {
  type AccessList2930Tx,
  type LegacyTx,
  type TransactionType,
  type TxValuesArray,
  createAccessList2930TxFromBytesArray,
  createLegacyTxFromBytesArray,
} from '@ethereumjs/tx';
import { type Address, SECP256K1_ORDER_DIV_2, bytesToBigInt } from '@ethereumjs/util';
import { installFastSenderAddress } from '../exec/sender-address.js';
import { TxRejectedError, feeMarketRefused } from './errors.js';
import { installRememberedSigningHash, rememberSigningHash } from './signing-hash.js';
import { noteTxBytes } from '../codec/tx-bytes.js';

/** The transaction kinds ETC has: legacy (type 0) and EIP-2930 access-list (type 1, from Magneto). */
export type PoolTransaction = LegacyTx | AccessList2930Tx;

export interface DecodeRules {
  readonly chainId: bigint;
  readonly common: Common;
  readonly allowUnprotected: boolean;
}

const TYPE_NAMES: Record<number, string> = {
  3: 'type 3 (EIP-4844 blob)',
  4: 'type 4 (EIP-7702 set-code)',
};

installFastSenderAddress();
installRememberedSigningHash();

export function decodePoolTransaction(raw: Uint8Array, rules: DecodeRules): PoolTransaction {
  if (raw.length === 0) throw undecodable('empty input');
  const first = raw[0];
  if (first >= 0xc0) return decodeLegacy(raw, rules);
  if (first === 0x01) return decodeAccessList(raw, rules);
  if (first === 0x02) throw feeMarketRefused();
  if (first <= 0x7f) {
    const name = TYPE_NAMES[first] ?? `type ${first}`;
    throw new TxRejectedError(
      'unsupported-type',
      `transaction type not supported: ${name} transactions do not exist on Ethereum Classic; send a legacy or EIP-2930 (type 1) transaction`,
    );
  }
  throw undecodable('a transaction is an RLP list or a typed envelope, not an RLP string');
}

/** The library leaves v/r/s undefined when a field is empty; such a transaction has no hash or sender. */
function requireSigned<T extends PoolTransaction>(tx: T): T {
  if (!tx.isSigned())
    throw new TxRejectedError(
      'invalid-signature',
      'invalid signature: the transaction is not signed (v, r or s is empty)',
    );
  return tx;
}

function decodeLegacy(raw: Uint8Array, rules: DecodeRules): LegacyTx {
  const shape =
    'a legacy transaction is an RLP list of 9 byte strings (nonce, gasPrice, gas, to, value, data, v, r, s)';
  const values = decodeRlpList(raw, 9, shape);
  if (!values.every((value) => value instanceof Uint8Array)) throw undecodable(shape);
  const v = bytesToBigInt(values[6]);
  if (v === 27n || v === 28n) {
    if (!rules.allowUnprotected) {
      throw new TxRejectedError(
        'unprotected',
        'only replay-protected (EIP-155) transactions allowed over RPC: this transaction was signed without a chain id; ' +
          `sign it for chain id ${rules.chainId}`,
      );
    }
  } else if (v >= 35n) {
    const chainId = (v - 35n) / 2n;
    if (chainId !== rules.chainId) throw chainIdMismatch(chainId, rules.chainId);
    if (!rules.common.gteHardfork('spuriousDragon')) {
      throw new TxRejectedError(
        'replay-protection-inactive',
        'EIP-155 replay protection is not active yet on this network (it starts at the Die Hard upgrade): sign the transaction without a chain id',
        { chainId },
      );
    }
  } else {
    throw new TxRejectedError(
      'invalid-signature',
      v === 0n
        ? 'invalid signature: the transaction is not signed'
        : `invalid signature: v = ${v} is neither 27/28 nor chainId * 2 + 35/36`,
    );
  }
  let tx: LegacyTx;
  try {
    tx = createLegacyTxFromBytesArray(values as TxValuesArray[typeof TransactionType.Legacy], { common: rules.common });
  } catch (error) {
    throw undecodable(libraryMessage(error));
  }
  // Its sender's recovery hashes what the signature signs: from these field bytes, not from the fields re-encoded.
  rememberSigningHash(requireSigned(tx), values as Uint8Array[]);
  // The bytes are its encoding: RLP.decode refuses every non-canonical form (a prefixed single byte, a long form for
  // a short length, zeros before a length, a remainder), the library refuses leading zeros in nonce, gasPrice, gas,
  // value, v, r and s and a `to` other than 20 bytes or none, and the other fields are bytes kept as they came.
  noteTxBytes(tx, raw);
  return tx;
}

function decodeAccessList(raw: Uint8Array, rules: DecodeRules): AccessList2930Tx {
  if (!rules.common.isActivatedEIP(2930)) {
    throw new TxRejectedError(
      'unsupported-type',
      'transaction type not supported: EIP-2930 (type 1) transactions are valid from the Magneto upgrade on; send a legacy transaction',
    );
  }
  const values = decodeRlpList(
    raw.subarray(1),
    11,
    'an EIP-2930 transaction is 0x01 followed by an RLP list of 11 fields (chainId, nonce, gasPrice, gas, to, value, data, accessList, v, r, s)',
  );
  if (!(values[0] instanceof Uint8Array)) throw undecodable('the chainId field must be a byte string');
  const chainId = bytesToBigInt(values[0]);
  if (chainId !== rules.chainId) throw chainIdMismatch(chainId, rules.chainId);
  let tx: AccessList2930Tx;
  try {
    tx = createAccessList2930TxFromBytesArray(
      values as unknown as TxValuesArray[typeof TransactionType.AccessListEIP2930],
      { common: rules.common },
    );
  } catch (error) {
    throw undecodable(libraryMessage(error));
  }
  return requireSigned(tx);
}

/** EIP-2: the pool refuses high-s signatures on every network (checked before any recovery). */
export function assertLowS(tx: PoolTransaction): void {
  if (tx.s !== undefined && tx.s > SECP256K1_ORDER_DIV_2) {
    throw new TxRejectedError(
      'invalid-signature',
      'invalid signature: s-value above secp256k1n/2 (EIP-2 requires low-s signatures)',
    );
  }
}

/** The rejection for a signature from which no public key can be recovered. */
export function unrecoverableSignature(): TxRejectedError {
  return new TxRejectedError('invalid-signature', 'invalid signature: no sender can be recovered from v, r, s');
}

/**
 * The sender recovered on the calling thread, or `invalid-signature`. Uses the Common's
 * `customCrypto.ecrecover` (native secp256k1). The pool normally goes through sender-recovery.ts,
 * which does the same work on a worker thread and falls back to this.
 */
export function recoverSender(tx: PoolTransaction): Address {
  assertLowS(tx);
  try {
    tx.getSenderPublicKey();
  } catch {
    throw unrecoverableSignature();
  }
  // Hashes with the Common's native keccak and caches the address on the transaction, so block
  // assembly does not hash it again (see exec/sender-address.ts).
  return tx.getSenderAddress();
}

function decodeRlpList(bytes: Uint8Array, length: number, shape: string): Uint8Array[] {
  let decoded: unknown;
  try {
    decoded = RLP.decode(bytes);
  } catch (error) {
    throw undecodable(`not valid RLP (${libraryMessage(error)})`);
  }
  if (!Array.isArray(decoded) || decoded.length !== length) throw undecodable(shape);
  return decoded as Uint8Array[];
}

function chainIdMismatch(chainId: bigint, expected: bigint): TxRejectedError {
  return new TxRejectedError(
    'chain-id-mismatch',
    `invalid chain id: the transaction is signed for chain id ${chainId}, this network is chain id ${expected}`,
    { chainId, expectedChainId: expected },
  );
}

function undecodable(why: string): TxRejectedError {
  return new TxRejectedError('undecodable', `could not decode transaction: ${why}`);
}

/** @ethereumjs errors append a "(tx type=… hash=… …)" postfix that means nothing to a user. */
function libraryMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\(tx type=.*\)\s*$/s, '');
}

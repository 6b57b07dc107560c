/**
 * A transaction's consensus bytes, encoded once per transaction object.
 *
 * `tx.serialize()` re-encodes every time, converting each bigint field through a hex string, and a mined
 * transaction is serialized for the pool, the transactions root and the stored block body (~20 µs each
 * here). Transactions are frozen (their fields cannot change), so the bytes can be kept beside them.
 */
import { RLP } from '@ethereumjs/rlp';
import { mapPacked } from '../base/packed-map.js';
import type { Block } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';

const known = new WeakMap<TypedTransaction, Uint8Array>();

export function txBytes(tx: TypedTransaction): Uint8Array {
  let bytes = known.get(tx);
  if (bytes === undefined) {
    bytes = tx.serialize();
    if (Object.isFrozen(tx)) known.set(tx, bytes);
  }
  return bytes;
}

/**
 * `bytes` are `tx`'s encoding as `serialize()` gives it (a caller that decoded `tx` from canonical bytes: the pool's
 * legacy decoder), kept instead of encoding it again; a transaction that is not frozen keeps nothing.
 */
export function noteTxBytes(tx: TypedTransaction, bytes: Uint8Array): void {
  if (Object.isFrozen(tx) && !known.has(tx)) known.set(tx, bytes);
}

/**
 * RLP of a block body's transaction list: a legacy transaction is its RLP list as is, a typed one
 * (EIP-2718) an RLP byte string holding `type || payload`.
 */
export function encodeTransactionList(txs: readonly TypedTransaction[]): Uint8Array {
  return rlpList(mapPacked(txs, (tx) => (tx.type === 0 ? txBytes(tx) : RLP.encode(txBytes(tx)))));
}

/**
 * Length of the block's RLP encoding (`block.serialize().length`, the JSON-RPC `size`) from the header's
 * bytes and the transactions' kept ones, without encoding the body again.
 */
export function serializedBlockLength(block: Block): number {
  let transactions = 0;
  for (const tx of block.transactions) {
    const length = txBytes(tx).length;
    transactions += tx.type === 0 ? length : encodedLength(length, 0x80);
  }
  let uncles = 0;
  for (const uncle of block.uncleHeaders) uncles += uncle.serialize().length;
  const payload = block.header.serialize().length + encodedLength(transactions, 0xc0) + encodedLength(uncles, 0xc0);
  return encodedLength(payload, 0xc0);
}

/** Length of an RLP item (string at 0x80, list at 0xc0) with a payload of `length` bytes (never a single byte under 0x80 here). */
function encodedLength(length: number, offset: number): number {
  return lengthPrefix(length, offset).length + length;
}

/** RLP list of already encoded items. */
export function rlpList(items: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const item of items) length += item.length;
  const prefix = lengthPrefix(length, 0xc0);
  const out = new Uint8Array(prefix.length + length);
  out.set(prefix, 0);
  let offset = prefix.length;
  for (const item of items) {
    out.set(item, offset);
    offset += item.length;
  }
  return out;
}

/** Short form below 56 bytes (offset + length), long form above (offset + 55 + length of length, length). */
function lengthPrefix(length: number, offset: number): Uint8Array {
  if (length < 56) return Uint8Array.of(offset + length);
  const lengthBytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) lengthBytes.unshift(n % 256);
  return Uint8Array.of(offset + 55 + lengthBytes.length, ...lengthBytes);
}

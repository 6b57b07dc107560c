/**
 * The RLP of an account trie leaf, [encoded path, rlp([nonce, balance, storageRoot, codeHash])], written in one
 * buffer: a bulk run re-encodes its coinbase's leaf for every block (exec/bulk-rewards.ts), where
 * `Account.serialize()` and the library's generic encoder of the leaf were ~60 % of a block's credit. The bytes are
 * the library's (account-leaf.test.ts compares them).
 */
import type { Account } from '@ethereumjs/util';
import { unpaddedBytes } from '../base/unpadded-bytes.js';

/** Bytes an RLP string header takes before `bytes` (none for a single byte below 0x80). */
function stringHeaderLength(bytes: Uint8Array): number {
  if (bytes.length === 1 && bytes[0] < 0x80) return 0;
  return lengthHeaderLength(bytes.length);
}

/** Bytes of the header of a string or list of `length` payload bytes. */
function lengthHeaderLength(length: number): number {
  if (length <= 55) return 1;
  return length <= 0xff ? 2 : length <= 0xffff ? 3 : 4;
}

/** Writes a header (`short` = 0x80 for strings, 0xc0 for lists) at `at`; returns the position after it. */
function writeHeader(out: Uint8Array, at: number, short: number, length: number): number {
  if (length <= 55) {
    out[at] = short + length;
    return at + 1;
  }
  const bytes = length <= 0xff ? 1 : length <= 0xffff ? 2 : 3;
  out[at++] = short + 55 + bytes;
  for (let i = bytes - 1; i >= 0; i--) out[at++] = (length >>> (8 * i)) & 0xff;
  return at;
}

function writeString(out: Uint8Array, at: number, bytes: Uint8Array): number {
  if (!(bytes.length === 1 && bytes[0] < 0x80)) at = writeHeader(out, at, 0x80, bytes.length);
  out.set(bytes, at);
  return at + bytes.length;
}

/** The leaf's encoding, and the account's own encoding within it (the leaf's value, a view of the same bytes). */
export function encodeAccountLeaf(
  path: Uint8Array,
  account: Account,
  allocate: (length: number) => Uint8Array = (length) => new Uint8Array(length),
): { leaf: Uint8Array; value: Uint8Array } {
  const fields = [unpaddedBytes(account.nonce), unpaddedBytes(account.balance), account.storageRoot, account.codeHash];
  let accountPayload = 0;
  for (const f of fields) accountPayload += stringHeaderLength(f) + f.length;
  const valueLength = lengthHeaderLength(accountPayload) + accountPayload;
  const leafPayload = stringHeaderLength(path) + path.length + lengthHeaderLength(valueLength) + valueLength;
  const out = allocate(lengthHeaderLength(leafPayload) + leafPayload);
  let at = writeHeader(out, 0, 0xc0, leafPayload);
  at = writeString(out, at, path);
  // The value is a string holding the account's list (always longer than one byte).
  at = writeHeader(out, at, 0x80, valueLength);
  const valueStart = at;
  at = writeHeader(out, at, 0xc0, accountPayload);
  for (const f of fields) at = writeString(out, at, f);
  return { leaf: out, value: out.subarray(valueStart, at) };
}

/**
 * Bloom additions without a DataView per bit.
 *
 * `runTx` builds every transaction's logs bloom with the library's `Bloom.add`, which hashes the entry and then
 * reads each of its three 11-bit positions through a new `DataView` over the hash's buffer: three objects per
 * address or topic, 12 per ERC-20 transfer (one log, three topics), ~4% of the main thread's samples while the dev
 * miner seals a burst of them (bench/burst-row.ts). The library offers no hook, so the method is replaced once,
 * with the same result: the big-endian 16-bit words at offsets 0, 2 and 4 of the hash's buffer, as the original
 * reads them (from the buffer's start, which is the hash's own start for every keccak here; a hash that is a view
 * further into a buffer takes the original method, so the result stays the library's in every case).
 *
 * An entry's three positions depend on nothing but the entry (and the hash function): a burst of ERC-20 transfers
 * adds the same token address, event signature and a handful of senders and recipients over and over, four keccaks
 * per transfer. Positions of entries up to 32 bytes are kept in a memo (at most MEMO_SIZE entries, emptied when full;
 * for one hash function at a time, emptied when another one comes).
 */
import { Bloom } from '@ethereumjs/vm';
import { hexKey } from '../db/hex-key.js';

const BYTE_SIZE = 256;
const MASK = 2047;

const MEMO_SIZE = 4096;
/** Entry (hex) → its three positions packed as loc0 + loc1·2^11 + loc2·2^22 (a number: 33 bits). */
const memo = new Map<string, number>();
/** The hash function the memo's positions were computed with. */
let memoHash: ((data: Uint8Array) => Uint8Array) | undefined;

/** How many entries the memo holds (tests check its bound). */
export function bloomMemoSize(): number {
  return memo.size;
}

/** The library's method, kept when it is replaced: the odd case above, and the reference of the tests. */
let libraryAdd: Bloom['add'] | undefined;

/** `Bloom.prototype.add` as the library defines it, whether or not `installFastBloomAdd` ran. */
export function libraryBloomAdd(): Bloom['add'] {
  return libraryAdd ?? Bloom.prototype.add;
}

/** Replaces `Bloom.prototype.add` (idempotent). */
export function installFastBloomAdd(): void {
  if (libraryAdd !== undefined) return;
  const original = Bloom.prototype.add;
  libraryAdd = original;
  Bloom.prototype.add = function add(this: Bloom, entry: Uint8Array): void {
    const keccak = this.keccakFunction;
    const key = entry.length <= 32 ? hexKey(entry) : undefined;
    if (keccak !== memoHash) {
      memo.clear();
      memoHash = keccak;
    }
    let packed = key === undefined ? undefined : memo.get(key);
    if (packed === undefined) {
      const hash = keccak(entry);
      if (hash.byteOffset !== 0 || hash.length < 6) {
        // Hashed again by the original: a keccak has no side effects, and this path is never taken with ours.
        original.call(this, entry);
        return;
      }
      packed = 0;
      for (let i = 0, scale = 1; i < 6; i += 2, scale *= 2048)
        packed += (((hash[i]! << 8) | hash[i + 1]!) & MASK) * scale;
      if (key !== undefined) {
        if (memo.size >= MEMO_SIZE) memo.clear();
        memo.set(key, packed);
      }
    }
    const bits = this.bitvector;
    let rest: number = packed;
    for (let i = 0; i < 3; i++) {
      const loc = rest % 2048;
      rest = (rest - loc) / 2048;
      const at = BYTE_SIZE - (loc >> 3) - 1;
      bits[at] = bits[at]! | (1 << (loc % 8));
    }
  };
}

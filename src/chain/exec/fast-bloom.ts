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
 */
import { Bloom } from '@ethereumjs/vm';

const BYTE_SIZE = 256;
const MASK = 2047;

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
    const hash = this.keccakFunction(entry);
    if (hash.byteOffset !== 0 || hash.length < 6) {
      // Hashed again by the original: a keccak has no side effects, and this path is never taken with ours.
      original.call(this, entry);
      return;
    }
    const bits = this.bitvector;
    for (let i = 0; i < 6; i += 2) {
      const loc = ((hash[i]! << 8) | hash[i + 1]!) & MASK;
      const at = BYTE_SIZE - (loc >> 3) - 1;
      bits[at] = bits[at]! | (1 << (loc % 8));
    }
  };
}

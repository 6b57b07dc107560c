/**
 * Shared pieces of the snap/1 serving tests: a constructor that fills storage, the storage it leaves as the trie
 * holds it (computed here independently of the node), hex-prefix path encoding, and hash arithmetic.
 */
import { RLP } from '@ethereumjs/rlp';
import { bigIntToBytes, setLengthLeft, unpadBytes } from '@ethereumjs/util';
import { keccak256 } from '../../src/chain/base/crypto.js';

export interface Slot {
  /** keccak256 of the 32-byte slot key: the storage trie key. */
  readonly hash: Uint8Array;
  /** The value as the trie stores it: RLP of the value without leading zeros. */
  readonly body: Uint8Array;
}

/**
 * Init code that writes `slots` slots (keys 1…slots) holding the contract's own address, then deploys no code:
 * `PUSH2 slots; loop: JUMPDEST; ADDRESS; DUP2; SSTORE; PUSH1 1; SWAP1; SUB; DUP1; PUSH1 3; JUMPI; STOP`.
 * The address as value keeps each contract's storage trie distinct.
 */
export function fillerInitCode(slots: number): Uint8Array {
  if (slots < 1 || slots > 0xffff) throw new RangeError(`slots must be 1…65535, got ${slots}`);
  return Uint8Array.from([
    0x61,
    slots >> 8,
    slots & 0xff,
    0x5b,
    0x30,
    0x81,
    0x55,
    0x60,
    0x01,
    0x90,
    0x03,
    0x80,
    0x60,
    0x03,
    0x57,
    0x00,
  ]);
}

/** The storage a filler contract at `address` holds, sorted by trie key. */
export function storageOf(address: Uint8Array, slots: number): Slot[] {
  const body = RLP.encode(unpadBytes(setLengthLeft(address, 32)));
  const out: Slot[] = [];
  for (let k = 1; k <= slots; k++) out.push({ hash: keccak256(setLengthLeft(bigIntToBytes(BigInt(k)), 32)), body });
  return out.sort((a, b) => Buffer.compare(a.hash, b.hash));
}

/** Hex-prefix (compact) encoding of a path of nibbles, as a node path in GetTrieNodes. */
export function compact(nibbles: readonly number[]): Uint8Array {
  const odd = nibbles.length % 2 === 1;
  const out = new Uint8Array(1 + (nibbles.length >> 1));
  out[0] = odd ? 0x10 | nibbles[0]! : 0x00;
  for (let i = odd ? 1 : 0, j = 1; i < nibbles.length; i += 2, j++) out[j] = (nibbles[i]! << 4) | nibbles[i + 1]!;
  return out;
}

/** The 32-byte big-endian number one above `hash` (with carry). */
export function increment(hash: Uint8Array): Uint8Array {
  const out = Uint8Array.from(hash);
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] !== 0xff) {
      out[i]!++;
      return out;
    }
    out[i] = 0;
  }
  return out;
}

/** The 32-byte big-endian number one below `hash` (with borrow). */
export function decrement(hash: Uint8Array): Uint8Array {
  const out = Uint8Array.from(hash);
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] !== 0) {
      out[i]!--;
      return out;
    }
    out[i] = 0xff;
  }
  return out;
}

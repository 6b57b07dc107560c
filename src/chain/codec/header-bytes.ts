/**
 * A header's stored encoding without encoding it again, where its bytes arrived with it (a history file's block) or
 * were made for its hash (`hashKeepingBytes`): storing a block encoded its header a second time, after its hash had
 * already encoded it once. Arrived bytes are taken only when their hash is the header's own hash, so they are
 * exactly what `serialize()` would give.
 */
import type { BlockHeader } from '@ethereumjs/block';
import { equalsBytes } from '@ethereumjs/util';

const arrived = new WeakMap<BlockHeader, Uint8Array>();

/** `bytes`, whose keccak-256 is `bytesHash`, are the encoding `header` was decoded from (kept if they hash alike). */
export function noteHeaderBytes(header: BlockHeader, bytes: Uint8Array, bytesHash: Uint8Array): void {
  if (equalsBytes(bytesHash, header.hash())) arrived.set(header, bytes);
}

/**
 * The header's hash as `hash()` gives it, from one encoding that is kept for `headerBytesOf`: importing a block hashed
 * its header, then storing it and handing it to the seal checker encoded it twice more. A frozen header caches its
 * hash in `cache.hash` (the library's own memo); an unfrozen one is hashed as the library does, nothing kept.
 */
export function hashKeepingBytes(header: BlockHeader): Uint8Array {
  // Protected in the library's types: its memo, and the function its `hash()` applies to the same encoding.
  const inner = header as unknown as {
    cache: { hash?: Uint8Array };
    keccakFunction: (msg: Uint8Array) => Uint8Array;
  };
  const memo = inner.cache;
  if (!Object.isFrozen(header) || memo.hash !== undefined) return header.hash();
  const bytes = header.serialize();
  memo.hash = inner.keccakFunction(bytes);
  arrived.set(header, bytes);
  return memo.hash;
}

/** The header's encoding, as `serialize()` gives it. */
export function headerBytesOf(header: BlockHeader): Uint8Array {
  return arrived.get(header) ?? header.serialize();
}

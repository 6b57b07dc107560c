/**
 * A header's stored encoding without encoding it again, where its bytes arrived with it (a history file's block):
 * storing a block encoded its header a second time, after its hash had already encoded it once. The bytes are
 * taken only when their hash is the header's own hash, so they are exactly what `serialize()` would give.
 */
import type { BlockHeader } from '@ethereumjs/block';
import { equalsBytes } from '@ethereumjs/util';

const arrived = new WeakMap<BlockHeader, Uint8Array>();

/** `bytes`, whose keccak-256 is `bytesHash`, are the encoding `header` was decoded from (kept if they hash alike). */
export function noteHeaderBytes(header: BlockHeader, bytes: Uint8Array, bytesHash: Uint8Array): void {
  if (equalsBytes(bytesHash, header.hash())) arrived.set(header, bytes);
}

/** The header's encoding, as `serialize()` gives it. */
export function headerBytesOf(header: BlockHeader): Uint8Array {
  return arrived.get(header) ?? header.serialize();
}

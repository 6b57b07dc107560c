/**
 * The `checkpoint` of a block result (and of qa_generateCheckpoint): the federation signatures as r ‖ s ‖ v, and
 * the public keys recovered from them over the checkpointed (parent) block's hash, as the original node showed them.
 */
import type { BlockHeader } from '@ethereumjs/block';
import { recoverSigner, signatureToBytes, type Checkpoint } from '../../chain/index.js';
import type { Checkpoint as CheckpointJson } from '../../generated/types.js';
import { hexFromBytes } from '../hex.js';

/** Recovery costs ~50 µs a signature; headers are immutable and cached by the engine, so each is done once. */
const rendered = new WeakMap<BlockHeader, CheckpointJson>();

export function formatCheckpoint(checkpoint: Checkpoint, parentHash: Uint8Array): CheckpointJson {
  const signers: `0x${string}`[] = [];
  for (const sig of checkpoint.signatures) {
    const key = recoverSigner(parentHash, sig);
    if (key !== undefined) signers.push(hexFromBytes(key));
  }
  return { signatures: checkpoint.signatures.map((sig) => hexFromBytes(signatureToBytes(sig))), signers };
}

export function formatHeaderCheckpoint(header: BlockHeader, checkpoint: Checkpoint): CheckpointJson {
  let out = rendered.get(header);
  if (out === undefined) rendered.set(header, (out = formatCheckpoint(checkpoint, header.parentHash)));
  return out;
}

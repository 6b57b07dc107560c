/**
 * The `checkpoint` of a block result (and of qa_generateCheckpoint): the federation signatures as r ‖ s ‖ v, and
 * the public keys recovered from them over the checkpointed (parent) block's hash, as the original node showed them.
 */
import type { BlockHeader } from '@ethereumjs/block';
import { recoverSigner, signatureToBytes, type Checkpoint, type EngineMemo } from '../../chain/index.js';
import type { Checkpoint as CheckpointJson } from '../../generated/types.js';
import { hexFromBytes } from '../hex.js';

function recoverSigners(checkpoint: Checkpoint, parentHash: Uint8Array): readonly Uint8Array[] {
  const signers: Uint8Array[] = [];
  for (const sig of checkpoint.signatures) {
    const key = recoverSigner(parentHash, sig);
    if (key !== undefined) signers.push(key);
  }
  return signers;
}

function checkpointJson(checkpoint: Checkpoint, signers: readonly Uint8Array[]): CheckpointJson {
  return {
    signatures: checkpoint.signatures.map((sig) => hexFromBytes(signatureToBytes(sig))),
    signers: signers.map(hexFromBytes),
  };
}

export function formatCheckpoint(checkpoint: Checkpoint, parentHash: Uint8Array): CheckpointJson {
  return checkpointJson(checkpoint, recoverSigners(checkpoint, parentHash));
}

/**
 * A stored header's checkpoint. Recovery costs ~50 µs a signature; headers are immutable and cached by the engine,
 * so the engine's memo keeps each header's signers and each is recovered once.
 */
export function formatHeaderCheckpoint(memo: EngineMemo, header: BlockHeader, checkpoint: Checkpoint): CheckpointJson {
  let signers = memo.checkpointSigners.get(header);
  if (signers === undefined)
    memo.checkpointSigners.set(header, (signers = recoverSigners(checkpoint, header.parentHash)));
  return checkpointJson(checkpoint, signers);
}

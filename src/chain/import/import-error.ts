/** Why a block was refused: the failure kinds peers and test_importRawBlock are told apart by. */
import type { Block } from '@ethereumjs/block';
import { bytesToHex } from '@ethereumjs/util';
import type { CheckpointFault } from '../checkpointing/index.js';

export type ImportFailure =
  | 'unknown-parent'
  | 'invalid-header'
  | 'invalid-seal'
  | 'invalid-body'
  | 'invalid-state'
  | 'invalid-checkpoint';

export class BlockImportError extends Error {
  constructor(
    readonly failure: ImportFailure,
    message: string,
    /** For 'invalid-checkpoint' (and ECIP-1097 field errors): which checkpointing rule failed. */
    readonly checkpointFault?: CheckpointFault,
  ) {
    super(message);
    this.name = 'BlockImportError';
  }
}

/** The error for `block`, its number and hash leading the reason. */
export function invalidBlock(block: Block, failure: ImportFailure, reason: string): BlockImportError {
  return new BlockImportError(failure, `block ${block.header.number} ${bytesToHex(block.hash())}: ${reason}`);
}

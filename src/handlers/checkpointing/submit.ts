/**
 * Submitting a checkpoint, shared by checkpointing_pushCheckpoint and qa_generateCheckpoint: build the checkpoint
 * block on the parent, import it (the engine validates it), and turn a refusal into -32602 naming the rule.
 */
import type { Block } from '@ethereumjs/block';
import { BlockImportError, type CheckpointSignature, type Federation, type ChainEngine } from '../../chain/index.js';
import { ErrorCode, invalidParams, RpcError } from '../../rpc/errors.js';
import { blockNotFound } from '../block-ref.js';

/** The network's federation, or -32000 where checkpointing is off (etc, mordor, dev without --checkpointing). */
export function federationOf(engine: ChainEngine): Federation {
  const federation = engine.chain.federation;
  if (federation === undefined) {
    throw new RpcError(
      ErrorCode.ServerError,
      'Checkpointing is not configured on this node: ECIP-1097 is off on this network (on dev, start the node with --checkpointing).',
    );
  }
  return federation;
}

/**
 * Imports the checkpoint block carrying `signatures` on `parentHash` and returns it (whether it became the head is
 * fork choice's business). `parentRef` is how the caller named the parent, for the -32001 message.
 */
export async function submitCheckpoint(
  engine: ChainEngine,
  parentHash: Uint8Array,
  parentRef: string,
  signatures: readonly CheckpointSignature[],
): Promise<Block> {
  federationOf(engine);
  const block = await engine.chain.checkpointBlock(parentHash, signatures);
  if (block === undefined) throw blockNotFound(parentRef);
  try {
    await engine.chain.importBlock(block);
  } catch (err) {
    if (err instanceof BlockImportError && err.checkpointFault !== undefined) {
      throw invalidParams(`Invalid checkpoint: ${err.checkpointFault.message}`, { reason: err.checkpointFault.code });
    }
    throw err;
  }
  return block;
}

import { signatureFromBytes, type CheckpointSignature } from '../../chain/index.js';
import type { CheckpointingPushCheckpointParams, CheckpointingPushCheckpointResult } from '../../generated/types.js';
import { invalidParams } from '../../rpc/errors.js';
import { engineOf } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex } from '../hex.js';
import { submitCheckpoint } from './submit.js';

/**
 * Builds the checkpoint block on `blockHash` with the federation's signatures and imports it. Unlike the original
 * (always `true`, problems only logged) it answers after validation: true = stored, else an error naming the rule.
 */
export async function checkpointing_pushCheckpoint(
  [blockHash, signatures]: CheckpointingPushCheckpointParams,
  ctx: HandlerContext,
): Promise<CheckpointingPushCheckpointResult> {
  const engine = engineOf(ctx);
  const sigs = signatures.map((hex, i): CheckpointSignature => {
    // The schema allows the ECIP's unprefixed form too; both are 65 bytes.
    const sig = signatureFromBytes(Buffer.from(hex.startsWith('0x') ? hex.slice(2) : hex, 'hex'));
    if (sig === undefined) throw invalidParams(`Bad signature length: signature ${i} must be 65 bytes (r ‖ s ‖ v)`);
    return sig;
  });
  await submitCheckpoint(engine, bytesFromHex(blockHash), blockHash, sigs);
  return true;
}

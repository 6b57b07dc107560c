import { checkpointOf, signCheckpoint } from '../../chain/index.js';
import type { QaGenerateCheckpointParams, QaGenerateCheckpointResult } from '../../generated/types.js';
import { invalidParams } from '../../rpc/errors.js';
import { blockNotFound, engineOf } from '../block-ref.js';
import { federationOf, submitCheckpoint } from '../checkpointing/submit.js';
import type { HandlerContext } from '../../rpc/context.js';
import { formatCheckpoint } from '../format/index.js';
import { bytesFromHex, hexFromBytes } from '../hex.js';

/**
 * Signs `blockHash` (default: the head) with each key as a federation member would, submits the checkpoint like
 * checkpointing_pushCheckpoint and returns it as block results show it.
 */
export async function qa_generateCheckpoint(
  [privateKeys, blockHash]: QaGenerateCheckpointParams,
  ctx: HandlerContext,
): Promise<QaGenerateCheckpointResult> {
  const engine = engineOf(ctx);
  federationOf(engine);
  const hash = blockHash === undefined ? engine.chain.getHead().hash() : bytesFromHex(blockHash);
  const ref = blockHash ?? hexFromBytes(hash);
  if ((await engine.chain.getHeader(hash)) === undefined) throw blockNotFound(ref);
  const signatures = privateKeys.map((key) => {
    try {
      return signCheckpoint(hash, Buffer.from(key.startsWith('0x') ? key.slice(2) : key, 'hex'));
    } catch {
      throw invalidParams('Invalid private key: not a valid secp256k1 key (must be 1 … n−1).');
    }
  });
  const block = await submitCheckpoint(engine, hash, ref, signatures);
  return formatCheckpoint(checkpointOf(block.header)!, hash);
}

import type { Block } from '@ethereumjs/block';
import { RLP } from '@ethereumjs/rlp';
import { BlockImportError } from '../../chain/index.js';
import type { TestImportRawBlockParams, TestImportRawBlockResult } from '../../generated/types.js';
import { ErrorCode, RpcError } from '../../rpc/errors.js';
import { engineOf } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex, hexFromBytes } from '../hex.js';

const validationFailed = (reason: string) => new RpcError(ErrorCode.ServerError, `Block validation failed: ${reason}.`);

/** Validates and imports one block (side chains and reorganisations included) and returns its hash. */
export async function test_importRawBlock(
  [rawBlock]: TestImportRawBlockParams,
  ctx: HandlerContext,
): Promise<TestImportRawBlockResult> {
  const engine = engineOf(ctx);
  const rlp = bytesFromHex(rawBlock);
  try {
    RLP.decode(rlp);
  } catch (err) {
    throw new RpcError(ErrorCode.InvalidParams, `Invalid block RLP: ${(err as Error).message}.`);
  }
  let block: Block;
  try {
    block = engine.chain.decodeBlock(rlp);
  } catch (err) {
    // Well-formed RLP that is no valid block (wrong field count or sizes, a transaction that does not decode).
    throw validationFailed((err as Error).message);
  }
  try {
    await engine.chain.importBlock(block);
  } catch (err) {
    if (err instanceof BlockImportError) throw validationFailed(err.message);
    throw validationFailed((err as Error).message);
  }
  return hexFromBytes(block.hash());
}

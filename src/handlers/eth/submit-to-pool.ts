/** Hands a signed transaction to the engine; the pool's rejection reasons become JSON-RPC errors. */
import type { TypedTransaction } from '@ethereumjs/tx';
import { type ChainEngine, isTxRejectedError, type SubmitResult } from '../../chain/index.js';
import { ErrorCode, RpcError } from '../../rpc/errors.js';
import type { HandlerContext } from '../../rpc/context.js';
import { hexFromBytes } from '../hex.js';

/**
 * Returns the transaction hash. Bytes that are no transaction: -32602; every other refusal: -32003 with the
 * pool's reason. On dev with the miner running (automine), answers once the engine says the transaction
 * settled (its block is the head; `ChainEngine.submit`).
 */
export async function submitToPool(
  engine: ChainEngine,
  tx: Uint8Array | TypedTransaction,
  afterBatch?: HandlerContext['afterBatch'],
): Promise<`0x${string}`> {
  let submitted: SubmitResult;
  try {
    submitted = await engine.submit(tx);
  } catch (error) {
    if (isTxRejectedError(error)) {
      throw new RpcError(
        error.reason === 'undecodable' ? ErrorCode.InvalidParams : ErrorCode.TransactionRejected,
        error.message,
      );
    }
    throw error;
  }
  const hashHex = hexFromBytes(submitted.hash);
  if (submitted.settled === undefined) return hashHex;
  // In a batch the wait moves to the end of the batch (see HandlerContext.afterBatch).
  if (afterBatch !== undefined) afterBatch(submitted.settled);
  else await submitted.settled;
  return hashHex;
}

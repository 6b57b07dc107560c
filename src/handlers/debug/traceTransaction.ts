import { traceTransaction } from '../../chain/trace/index.js';
import type { DebugTraceTransactionParams, DebugTraceTransactionResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { ErrorCode, RpcError } from '../../rpc/errors.js';
import { engineOf } from '../block-ref.js';
import { bytesFromHex } from '../hex.js';
import { answering, traceOptionsOf } from './trace-config.js';

/** Replays the transaction's block up to it and traces it (geth's debug_traceTransaction). */
export async function debug_traceTransaction(
  [txHash, config]: DebugTraceTransactionParams,
  ctx: HandlerContext,
): Promise<DebugTraceTransactionResult> {
  const opts = traceOptionsOf(config, ctx);
  const chain = engineOf(ctx).chain;
  const result = await answering('debug_traceTransaction', () => traceTransaction(chain, bytesFromHex(txHash), opts));
  if (result === undefined) throw new RpcError(ErrorCode.ServerError, `transaction ${txHash.toLowerCase()} not found`);
  return result as DebugTraceTransactionResult;
}

import { JsonText, traceTransaction } from '../../chain/index.js';
import type { DebugTraceTransactionParams, DebugTraceTransactionResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { ErrorCode, RpcError } from '../../rpc/errors.js';
import { RawJson } from '../../rpc/raw-json.js';
import { engineOf } from '../block-ref.js';
import { bytesFromHex } from '../hex.js';
import { placeFlatFrames } from './flat-frames.js';
import { traceOptionsOf } from './trace-config.js';
import { tracing } from '../trace-answer.js';

/** Replays the transaction's block up to it and traces it (geth's debug_traceTransaction). */
export async function debug_traceTransaction(
  [txHash, config]: DebugTraceTransactionParams,
  ctx: HandlerContext,
): Promise<DebugTraceTransactionResult> {
  // The struct logger's answer comes as JSON text, sent on as it is.
  const opts = traceOptionsOf(config, ctx, true);
  const chain = engineOf(ctx).chain;
  const result = await tracing(ctx, 'debug_traceTransaction', () =>
    traceTransaction(chain, bytesFromHex(txHash), opts),
  );
  if (result === undefined) throw new RpcError(ErrorCode.ServerError, `transaction ${txHash.toLowerCase()} not found`);
  if (result instanceof JsonText)
    return new RawJson(result.pieces, result.release) as unknown as DebugTraceTransactionResult;
  if (opts.tracer !== 'flatCallTracer') return result as DebugTraceTransactionResult;
  const hash = bytesFromHex(txHash);
  const location = await chain.getTransactionLocation(hash);
  const header = location === undefined ? undefined : await chain.getHeader(location.blockHash);
  if (location === undefined || header === undefined) return result as DebugTraceTransactionResult;
  const place = { blockHash: location.blockHash, blockNumber: header.number, txHash: hash, index: location.index };
  return placeFlatFrames(result as DebugTraceTransactionResult, place);
}

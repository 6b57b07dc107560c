/**
 * ots_traceTransaction, ots_getInternalOperations and ots_getTransactionError: one replay of the transaction under
 * the engine's otsTracer (callTracer's frames plus the precompiles called), read three ways. The debug_trace*
 * caps and slots apply, answered as for every tracing method (../trace-answer.ts); an unknown transaction is
 * -32000, as Erigon answers.
 */
import { framesOf, type OtsTraceJson, traceTransaction } from '../../chain/index.js';
import type {
  OtsGetInternalOperationsParams,
  OtsGetInternalOperationsResult,
  OtsGetTransactionErrorParams,
  OtsGetTransactionErrorResult,
  OtsInternalOperation,
  OtsTraceEntry,
  OtsTraceTransactionParams,
  OtsTraceTransactionResult,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { ErrorCode, RpcError } from '../../rpc/errors.js';
import { engineOf } from '../block-ref.js';
import { traceOptionsOf } from '../debug/trace-config.js';
import { tracing } from '../trace-answer.js';
import { bytesFromHex } from '../hex.js';

async function otsTrace(method: string, txHash: string, ctx: HandlerContext): Promise<OtsTraceJson> {
  const opts = { ...traceOptionsOf(undefined, ctx), tracer: 'otsTracer' as const };
  const chain = engineOf(ctx).chain;
  const result = await tracing(ctx, method, () => traceTransaction(chain, bytesFromHex(txHash), opts));
  if (result === undefined) throw new RpcError(ErrorCode.ServerError, `transaction ${txHash.toLowerCase()} not found`);
  return result as OtsTraceJson;
}

const ZERO_ADDRESS = `0x${'0'.repeat(40)}` as const;

export async function ots_traceTransaction(
  [txHash]: OtsTraceTransactionParams,
  ctx: HandlerContext,
): Promise<OtsTraceTransactionResult> {
  const { root, precompiles } = await otsTrace('ots_traceTransaction', txHash, ctx);
  if (root === undefined) return [];
  const entries: OtsTraceEntry[] = [];
  const called = new Set(precompiles);
  for (const { frame, depth } of framesOf(root)) {
    const type = frame.type as OtsTraceEntry['type'];
    const isCall = type === 'CALL' || type === 'STATICCALL';
    if (depth > 0 && isCall && frame.to !== undefined && called.has(frame.to)) continue;
    const valueless = type === 'DELEGATECALL' || type === 'STATICCALL';
    entries.push({
      type,
      depth,
      from: frame.from as OtsTraceEntry['from'],
      to: (frame.to ?? ZERO_ADDRESS) as OtsTraceEntry['to'],
      value: valueless ? null : ((frame.value ?? '0x0') as OtsTraceEntry['value']),
      input: (type === 'SELFDESTRUCT' ? '0x' : frame.input) as OtsTraceEntry['input'],
      output: type === 'SELFDESTRUCT' ? null : ((frame.output ?? '0x') as OtsTraceEntry['output']),
    });
  }
  return entries;
}

const OPERATION_TYPES: Readonly<Record<string, OtsInternalOperation['type']>> = {
  CALL: 0,
  SELFDESTRUCT: 1,
  CREATE: 2,
  CREATE2: 3,
};

export async function ots_getInternalOperations(
  [txHash]: OtsGetInternalOperationsParams,
  ctx: HandlerContext,
): Promise<OtsGetInternalOperationsResult> {
  const { root } = await otsTrace('ots_getInternalOperations', txHash, ctx);
  if (root === undefined) return [];
  const operations: OtsInternalOperation[] = [];
  for (const { frame, depth } of framesOf(root)) {
    // The transaction's own transfer or creation is the transaction itself, not an operation inside it.
    const type = OPERATION_TYPES[frame.type];
    if (depth === 0 || type === undefined) continue;
    const value = (frame.value ?? '0x0') as OtsInternalOperation['value'];
    if (type === 0 && BigInt(value) === 0n) continue;
    operations.push({
      type,
      from: frame.from as OtsInternalOperation['from'],
      to: (frame.to ?? ZERO_ADDRESS) as OtsInternalOperation['to'],
      value,
    });
  }
  return operations;
}

export async function ots_getTransactionError(
  [txHash]: OtsGetTransactionErrorParams,
  ctx: HandlerContext,
): Promise<OtsGetTransactionErrorResult> {
  const { root } = await otsTrace('ots_getTransactionError', txHash, ctx);
  if (root?.error === undefined) return '0x';
  return (root.output ?? '0x') as OtsGetTransactionErrorResult;
}

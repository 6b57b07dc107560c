/** trace_block, trace_transaction and trace_get: the localized traces of stored blocks and transactions. */
import type {
  TraceBlockParams,
  TraceBlockResult,
  TraceGetParams,
  TraceGetResult,
  TraceTransactionParams,
  TraceTransactionResult,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { engineOf, findBlock } from '../block-ref.js';
import { bytesFromHex, fromQuantity } from '../hex.js';
import { type LocalizedTrace, wire } from './parity-convert.js';
import { blockTracesOf, traceLimits, transactionTracesOf } from './tracing.js';
import { tracing } from '../trace-answer.js';

export async function trace_block([blockParam]: TraceBlockParams, ctx: HandlerContext): Promise<TraceBlockResult> {
  const engine = engineOf(ctx);
  const found = await findBlock(engine, blockParam);
  if (found === undefined || found.pending) return null;
  return wire(await tracing(ctx, 'trace_block', () => blockTracesOf(engine, found.block, traceLimits(ctx))));
}

/** The traces of one stored transaction (its block replayed up to it), or undefined when it is unknown. */
async function transactionTraces(ctx: HandlerContext, hash: string, method: string): Promise<LocalizedTrace[] | null> {
  const engine = engineOf(ctx);
  const found = await engine.chain.getTransaction(bytesFromHex(hash));
  if (found === undefined) return null;
  return tracing(ctx, method, () => transactionTracesOf(engine, found.block, traceLimits(ctx), found.index));
}

export async function trace_transaction(
  [hash]: TraceTransactionParams,
  ctx: HandlerContext,
): Promise<TraceTransactionResult> {
  const traces = await transactionTraces(ctx, hash, 'trace_transaction');
  return traces === null ? null : wire(traces);
}

export async function trace_get([hash, indices]: TraceGetParams, ctx: HandlerContext): Promise<TraceGetResult> {
  const traces = await transactionTraces(ctx, hash, 'trace_get');
  const path = indices.map((i) => Number(fromQuantity(i)));
  const match = traces?.find(
    (t) => t.traceAddress.length === path.length && t.traceAddress.every((n, i) => n === path[i]),
  );
  return match === undefined ? null : wire([match])[0];
}

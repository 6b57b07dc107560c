/**
 * trace_transactionOpcodeGas and trace_blockOpcodeGas (reth's): replays under the engine's opcodeGasTracer, with the
 * debug_trace* caps and slots (../trace-answer.ts).
 */
import type { Block } from '@ethereumjs/block';
import { type OpcodeGasJson, traceBlock, traceTransaction } from '../../chain/index.js';
import type {
  TraceBlockOpcodeGasParams,
  TraceBlockOpcodeGasResult,
  TraceTransactionOpcodeGasParams,
  TraceTransactionOpcodeGasResult,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { blockNotFound, engineOf, findBlock } from '../block-ref.js';
import { traceOptionsOf } from '../debug/trace-config.js';
import { bytesFromHex, hexFromBytes } from '../hex.js';
import { tracing } from '../trace-answer.js';

const optionsOf = (ctx: HandlerContext) => ({ ...traceOptionsOf(undefined, ctx), tracer: 'opcodeGasTracer' as const });

export async function trace_transactionOpcodeGas(
  [hash]: TraceTransactionOpcodeGasParams,
  ctx: HandlerContext,
): Promise<TraceTransactionOpcodeGasResult> {
  const { chain } = engineOf(ctx);
  const opts = optionsOf(ctx);
  const result = await tracing(ctx, 'trace_transactionOpcodeGas', () =>
    traceTransaction(chain, bytesFromHex(hash), opts),
  );
  if (result === undefined) return null;
  return { transactionHash: hash.toLowerCase() as `0x${string}`, opcodeGas: result as OpcodeGasJson[] };
}

export async function trace_blockOpcodeGas(
  [ref]: TraceBlockOpcodeGasParams,
  ctx: HandlerContext,
): Promise<TraceBlockOpcodeGasResult> {
  const engine = engineOf(ctx);
  const found = await findBlock(engine, ref);
  if (found === undefined || found.pending) throw blockNotFound(String(ref));
  const block: Block = found.block;
  const opts = optionsOf(ctx);
  const traces = await tracing(ctx, 'trace_blockOpcodeGas', () => traceBlock(engine.chain, block, opts));
  return {
    blockHash: hexFromBytes(block.hash()),
    blockNumber: Number(block.header.number),
    transactions: (traces ?? []).map((t) => ({
      transactionHash: hexFromBytes(t.txHash),
      opcodeGas: t.result as OpcodeGasJson[],
    })),
  };
}

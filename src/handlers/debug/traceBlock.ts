/** debug_traceBlockByNumber / ByHash / debug_traceBlock (raw RLP): every transaction of a block, traced in order. */
import type { Block } from '@ethereumjs/block';
import { traceBlock } from '../../chain/index.js';
import type {
  DebugTraceBlockByHashParams,
  DebugTraceBlockByNumberParams,
  DebugTraceBlockParams,
  DebugTraceBlockResult,
  GethTraceConfig,
  GethTraceResult,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { invalidParams } from '../../rpc/errors.js';
import { blockNotFound, engineOf, findBlock, findBlockByHash } from '../block-ref.js';
import { bytesFromHex, hexFromBytes } from '../hex.js';
import { placeFlatFrames } from './flat-frames.js';
import { traceOptionsOf } from './trace-config.js';
import { tracing } from '../trace-answer.js';

async function traced(
  method: string,
  block: Block,
  config: GethTraceConfig | undefined,
  ctx: HandlerContext,
): Promise<DebugTraceBlockResult> {
  const opts = traceOptionsOf(config, ctx);
  const chain = engineOf(ctx).chain;
  const traces = await tracing(ctx, method, () => traceBlock(chain, block, opts));
  const blockHash = block.hash();
  return (traces ?? []).map((t, index) => {
    const result = t.result as GethTraceResult;
    const place = { blockHash, blockNumber: block.header.number, txHash: t.txHash, index };
    return {
      txHash: hexFromBytes(t.txHash),
      result: opts.tracer === 'flatCallTracer' ? placeFlatFrames(result, place) : result,
    };
  });
}

export async function debug_traceBlockByNumber(
  [ref, config]: DebugTraceBlockByNumberParams,
  ctx: HandlerContext,
): Promise<DebugTraceBlockResult> {
  const found = await findBlock(engineOf(ctx), ref);
  if (found === undefined) throw blockNotFound(String(ref));
  return traced('debug_traceBlockByNumber', found.block, config, ctx);
}

export async function debug_traceBlockByHash(
  [hash, config]: DebugTraceBlockByHashParams,
  ctx: HandlerContext,
): Promise<DebugTraceBlockResult> {
  const found = await findBlockByHash(engineOf(ctx), hash);
  if (found === undefined) throw blockNotFound(hash);
  return traced('debug_traceBlockByHash', found.block, config, ctx);
}

export async function debug_traceBlock(
  [rlp, config]: DebugTraceBlockParams,
  ctx: HandlerContext,
): Promise<DebugTraceBlockResult> {
  let block: Block;
  try {
    block = engineOf(ctx).chain.decodeBlock(bytesFromHex(rlp));
  } catch (err) {
    throw invalidParams(`invalid params: the block RLP cannot be decoded: ${(err as Error).message}`);
  }
  return traced('debug_traceBlock', block, config, ctx);
}

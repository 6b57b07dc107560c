/**
 * debug_getRawHeader / Block / Transaction / Receipts: the consensus encodings geth returns, so a tool can check
 * hashes and roots itself. Receipts are encoded as receiptsRoot commits to them (EIP-2718: the type byte before a
 * typed transaction's receipt), geth's `MarshalBinary`.
 */
import { encodeConsensusReceipt } from '../../chain/index.js';
import type {
  DebugGetRawBlockParams,
  DebugGetRawBlockResult,
  DebugGetRawHeaderParams,
  DebugGetRawHeaderResult,
  DebugGetRawReceiptsParams,
  DebugGetRawReceiptsResult,
  DebugGetRawTransactionParams,
  DebugGetRawTransactionResult,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { blockNotFound, engineOf, findBlock, receiptsOf, type ResolvedBlock } from '../block-ref.js';
import type { BlockNumberOrTagOrHash } from '../../generated/types.js';
import { hexFromBytes } from '../hex.js';
import { eth_getRawTransactionByHash } from '../eth/getRawTransaction.js';

/** The block a param names; -32001 when this node does not hold it (geth answers an error, not null, here too). */
async function blockOf(ctx: HandlerContext, ref: BlockNumberOrTagOrHash): Promise<ResolvedBlock> {
  const resolved = await findBlock(engineOf(ctx), ref);
  if (resolved === undefined) throw blockNotFound(typeof ref === 'string' ? ref : JSON.stringify(ref));
  return resolved;
}

export async function debug_getRawHeader(
  [block]: DebugGetRawHeaderParams,
  ctx: HandlerContext,
): Promise<DebugGetRawHeaderResult> {
  return hexFromBytes((await blockOf(ctx, block)).block.header.serialize());
}

export async function debug_getRawBlock(
  [block]: DebugGetRawBlockParams,
  ctx: HandlerContext,
): Promise<DebugGetRawBlockResult> {
  return hexFromBytes((await blockOf(ctx, block)).block.serialize());
}

/** A mined or pooled transaction's signed encoding; null when unknown (as eth_getRawTransactionByHash). */
export function debug_getRawTransaction(
  [hash]: DebugGetRawTransactionParams,
  ctx: HandlerContext,
): Promise<DebugGetRawTransactionResult> {
  return eth_getRawTransactionByHash([hash], ctx);
}

export async function debug_getRawReceipts(
  [block]: DebugGetRawReceiptsParams,
  ctx: HandlerContext,
): Promise<DebugGetRawReceiptsResult> {
  const engine = engineOf(ctx);
  const receipts = await receiptsOf(engine, await blockOf(ctx, block));
  return receipts.map((receipt) => hexFromBytes(encodeConsensusReceipt(receipt)));
}

/** The raw-data group of debug_* handlers. */
export const debugRawHandlers = {
  debug_getRawHeader,
  debug_getRawBlock,
  debug_getRawTransaction,
  debug_getRawReceipts,
};

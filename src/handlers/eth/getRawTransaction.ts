/** eth_getRawTransactionByHash / ByBlockHashAndIndex / ByBlockNumberAndIndex: the signed encoding (EIP-2718 envelope for type 1). */
import type {
  EthGetRawTransactionByBlockHashAndIndexParams,
  EthGetRawTransactionByBlockHashAndIndexResult,
  EthGetRawTransactionByBlockNumberAndIndexParams,
  EthGetRawTransactionByBlockNumberAndIndexResult,
  EthGetRawTransactionByHashParams,
  EthGetRawTransactionByHashResult,
} from '../../generated/types.js';
import { engineOf, findBlock, findBlockByHash, type ResolvedBlock } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { fromQuantity, hexFromBytes } from '../hex.js';
import { findMined } from './transactions.js';

export async function eth_getRawTransactionByHash(
  [hash]: EthGetRawTransactionByHashParams,
  ctx: HandlerContext,
): Promise<EthGetRawTransactionByHashResult> {
  const engine = engineOf(ctx);
  const pooled = engine.pool.get(hash);
  if (pooled !== undefined) return hexFromBytes(pooled.raw);
  const mined = await findMined(engine, hash);
  return mined === undefined ? null : hexFromBytes(mined.tx.serialize());
}

function rawAt(resolved: ResolvedBlock | undefined, index: string): EthGetRawTransactionByBlockHashAndIndexResult {
  if (resolved === undefined) return null;
  const i = fromQuantity(index);
  const txs = resolved.block.transactions;
  return i < BigInt(txs.length) ? hexFromBytes(txs[Number(i)].serialize()) : null;
}

export async function eth_getRawTransactionByBlockHashAndIndex(
  [blockHash, index]: EthGetRawTransactionByBlockHashAndIndexParams,
  ctx: HandlerContext,
): Promise<EthGetRawTransactionByBlockHashAndIndexResult> {
  return rawAt(await findBlockByHash(engineOf(ctx), blockHash), index);
}

export async function eth_getRawTransactionByBlockNumberAndIndex(
  [block, index]: EthGetRawTransactionByBlockNumberAndIndexParams,
  ctx: HandlerContext,
): Promise<EthGetRawTransactionByBlockNumberAndIndexResult> {
  return rawAt(await findBlock(engineOf(ctx), block), index);
}

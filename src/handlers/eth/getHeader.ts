/**
 * eth_getHeaderByNumber / eth_getHeaderByHash: a block's header in geth's shape, which is the block object without
 * its body (no transactions, uncles or size), with the fields this node's blocks carry besides (totalDifficulty, as
 * core-geth adds it, and the ECIP-1097 checkpoint fields).
 */
import type { ChainEngine } from '../../chain/index.js';
import type {
  BlockHeaderObject,
  EthGetHeaderByHashParams,
  EthGetHeaderByHashResult,
  EthGetHeaderByNumberParams,
  EthGetHeaderByNumberResult,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { engineOf, findBlock, findBlockByHash, type ResolvedBlock } from '../block-ref.js';
import { blockJson } from './getBlock.js';

async function headerJson(engine: ChainEngine, resolved: ResolvedBlock | undefined): Promise<BlockHeaderObject | null> {
  if (resolved === undefined) return null;
  const { transactions: _t, uncles: _u, size: _s, ...header } = await blockJson(engine, resolved, false);
  return header;
}

export async function eth_getHeaderByNumber(
  [block]: EthGetHeaderByNumberParams,
  ctx: HandlerContext,
): Promise<EthGetHeaderByNumberResult> {
  const engine = engineOf(ctx);
  return headerJson(engine, await findBlock(engine, block));
}

export async function eth_getHeaderByHash(
  [blockHash]: EthGetHeaderByHashParams,
  ctx: HandlerContext,
): Promise<EthGetHeaderByHashResult> {
  const engine = engineOf(ctx);
  return headerJson(engine, await findBlockByHash(engine, blockHash));
}

/** eth_getUncleBy{BlockHash,BlockNumber}AndIndex and eth_getUncleCountBy{BlockHash,BlockNumber}. */
import type { ChainEngine } from '../../chain/index.js';
import type {
  EthGetUncleByBlockHashAndIndexParams,
  EthGetUncleByBlockHashAndIndexResult,
  EthGetUncleByBlockNumberAndIndexParams,
  EthGetUncleByBlockNumberAndIndexResult,
  EthGetUncleCountByBlockHashParams,
  EthGetUncleCountByBlockHashResult,
  EthGetUncleCountByBlockNumberParams,
  EthGetUncleCountByBlockNumberResult,
} from '../../generated/types.js';
import { engineOf, findBlock, findBlockByHash, type ResolvedBlock } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { fromQuantity, toQuantity } from '../hex.js';
import { formatUncle } from '../format/index.js';
import { readsOf } from '../fork-history.js';

/**
 * An uncle's total difficulty is its parent's plus its own: the parent is an ancestor of the including
 * block (at most 7 generations back), so it is stored even when the uncle itself never was.
 */
async function uncleJson(
  engine: ChainEngine,
  resolved: ResolvedBlock | undefined,
  index: string,
): Promise<EthGetUncleByBlockHashAndIndexResult> {
  if (resolved === undefined) return null;
  const i = fromQuantity(index);
  const uncles = resolved.block.uncleHeaders;
  if (i >= BigInt(uncles.length)) return null;
  const uncle = uncles[Number(i)];
  const parentTd = await engine.chain.getTotalDifficulty(uncle.parentHash);
  if (parentTd === undefined) throw new Error(`uncle ${uncle.number}: its parent is not stored`);
  return formatUncle(engine.memo, uncle, parentTd + uncle.difficulty);
}

export async function eth_getUncleByBlockHashAndIndex(
  [blockHash, index]: EthGetUncleByBlockHashAndIndexParams,
  ctx: HandlerContext,
): Promise<EthGetUncleByBlockHashAndIndexResult> {
  return readsOf(ctx).atBlock(blockHash, 'eth_getUncleByBlockHashAndIndex', [blockHash, index], async () => {
    const engine = engineOf(ctx);
    return uncleJson(engine, await findBlockByHash(engine, blockHash), index);
  });
}

export async function eth_getUncleByBlockNumberAndIndex(
  [block, index]: EthGetUncleByBlockNumberAndIndexParams,
  ctx: HandlerContext,
): Promise<EthGetUncleByBlockNumberAndIndexResult> {
  return readsOf(ctx).atBlock(block, 'eth_getUncleByBlockNumberAndIndex', [block, index], async () => {
    const engine = engineOf(ctx);
    return uncleJson(engine, await findBlock(engine, block), index);
  });
}

const uncleCount = (resolved: ResolvedBlock | undefined) =>
  resolved === undefined ? null : toQuantity(resolved.block.uncleHeaders.length);

export async function eth_getUncleCountByBlockHash(
  [blockHash]: EthGetUncleCountByBlockHashParams,
  ctx: HandlerContext,
): Promise<EthGetUncleCountByBlockHashResult> {
  return readsOf(ctx).atBlock(blockHash, 'eth_getUncleCountByBlockHash', [blockHash], async () =>
    uncleCount(await findBlockByHash(engineOf(ctx), blockHash)),
  );
}

export async function eth_getUncleCountByBlockNumber(
  [block]: EthGetUncleCountByBlockNumberParams,
  ctx: HandlerContext,
): Promise<EthGetUncleCountByBlockNumberResult> {
  return readsOf(ctx).atBlock(block, 'eth_getUncleCountByBlockNumber', [block], async () =>
    uncleCount(await findBlock(engineOf(ctx), block)),
  );
}

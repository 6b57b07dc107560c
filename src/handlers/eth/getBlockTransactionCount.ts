/** eth_getBlockTransactionCountByHash / ByNumber: null for an unknown block. */
import type {
  EthGetBlockTransactionCountByHashParams,
  EthGetBlockTransactionCountByHashResult,
  EthGetBlockTransactionCountByNumberParams,
  EthGetBlockTransactionCountByNumberResult,
} from '../../generated/types.js';
import { engineOf, findBlock, findBlockByHash, type ResolvedBlock } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { fromForkHistory } from '../fork-history.js';
import { toQuantity } from '../hex.js';

const count = (resolved: ResolvedBlock | undefined) =>
  resolved === undefined ? null : toQuantity(resolved.block.transactions.length);

export async function eth_getBlockTransactionCountByHash(
  [blockHash]: EthGetBlockTransactionCountByHashParams,
  ctx: HandlerContext,
): Promise<EthGetBlockTransactionCountByHashResult> {
  const method = 'eth_getBlockTransactionCountByHash';
  const history = await fromForkHistory<EthGetBlockTransactionCountByHashResult>(ctx, blockHash, method, [blockHash]);
  if (history !== undefined) return history.answer;
  return count(await findBlockByHash(engineOf(ctx), blockHash));
}

export async function eth_getBlockTransactionCountByNumber(
  [block]: EthGetBlockTransactionCountByNumberParams,
  ctx: HandlerContext,
): Promise<EthGetBlockTransactionCountByNumberResult> {
  const method = 'eth_getBlockTransactionCountByNumber';
  const history = await fromForkHistory<EthGetBlockTransactionCountByNumberResult>(ctx, block, method, [block]);
  if (history !== undefined) return history.answer;
  return count(await findBlock(engineOf(ctx), block));
}

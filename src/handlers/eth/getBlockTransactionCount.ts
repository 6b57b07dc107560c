/** eth_getBlockTransactionCountByHash / ByNumber: null for an unknown block. */
import type {
  EthGetBlockTransactionCountByHashParams,
  EthGetBlockTransactionCountByHashResult,
  EthGetBlockTransactionCountByNumberParams,
  EthGetBlockTransactionCountByNumberResult,
} from '../../generated/types.js';
import { engineOf, findBlock, findBlockByHash, type ResolvedBlock } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { readsOf } from '../fork-history.js';
import { toQuantity } from '../hex.js';

const count = (resolved: ResolvedBlock | undefined) =>
  resolved === undefined ? null : toQuantity(resolved.block.transactions.length);

export async function eth_getBlockTransactionCountByHash(
  [blockHash]: EthGetBlockTransactionCountByHashParams,
  ctx: HandlerContext,
): Promise<EthGetBlockTransactionCountByHashResult> {
  return readsOf(ctx).atBlock<EthGetBlockTransactionCountByHashResult>(
    blockHash,
    'eth_getBlockTransactionCountByHash',
    [blockHash],
    async () => count(await findBlockByHash(engineOf(ctx), blockHash)),
  );
}

export async function eth_getBlockTransactionCountByNumber(
  [block]: EthGetBlockTransactionCountByNumberParams,
  ctx: HandlerContext,
): Promise<EthGetBlockTransactionCountByNumberResult> {
  return readsOf(ctx).atBlock<EthGetBlockTransactionCountByNumberResult>(
    block,
    'eth_getBlockTransactionCountByNumber',
    [block],
    async () => count(await findBlock(engineOf(ctx), block)),
  );
}

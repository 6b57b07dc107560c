/** eth_getTransactionByHash, eth_getTransactionByBlockHashAndIndex, eth_getTransactionByBlockNumberAndIndex. */
import type {
  EthGetTransactionByBlockHashAndIndexParams,
  EthGetTransactionByBlockHashAndIndexResult,
  EthGetTransactionByBlockNumberAndIndexParams,
  EthGetTransactionByBlockNumberAndIndexResult,
  EthGetTransactionByHashParams,
  EthGetTransactionByHashResult,
  Transaction,
} from '../../generated/types.js';
import { engineOf, findBlock, findBlockByHash } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { formatTransaction } from '../format/index.js';
import { readsOf } from '../fork-history.js';
import { findTransaction, transactionAt, type FoundTransaction } from './transactions.js';

const json = (found: FoundTransaction | undefined) =>
  found === undefined ? null : formatTransaction(found.tx, found.from, found.at);

export async function eth_getTransactionByHash(
  [hash]: EthGetTransactionByHashParams,
  ctx: HandlerContext,
): Promise<EthGetTransactionByHashResult> {
  const local = json(await findTransaction(engineOf(ctx), hash));
  return readsOf(ctx).byTransactionHash(local, 'eth_getTransactionByHash', [hash]);
}

export async function eth_getTransactionByBlockHashAndIndex(
  [blockHash, index]: EthGetTransactionByBlockHashAndIndexParams,
  ctx: HandlerContext,
): Promise<EthGetTransactionByBlockHashAndIndexResult> {
  const params = [blockHash, index];
  return readsOf(ctx).atBlock<Transaction>(blockHash, 'eth_getTransactionByBlockHashAndIndex', params, async () => {
    const engine = engineOf(ctx);
    return json(await transactionAt(engine, await findBlockByHash(engine, blockHash), index));
  });
}

export async function eth_getTransactionByBlockNumberAndIndex(
  [block, index]: EthGetTransactionByBlockNumberAndIndexParams,
  ctx: HandlerContext,
): Promise<EthGetTransactionByBlockNumberAndIndexResult> {
  const params = [block, index];
  return readsOf(ctx).atBlock<Transaction>(block, 'eth_getTransactionByBlockNumberAndIndex', params, async () => {
    const engine = engineOf(ctx);
    return json(await transactionAt(engine, await findBlock(engine, block), index));
  });
}

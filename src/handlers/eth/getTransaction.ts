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
import { fromForkHistory, upstreamHistory } from '../fork-history.js';
import { findTransaction, transactionAt, type FoundTransaction } from './transactions.js';

const json = (found: FoundTransaction | undefined) =>
  found === undefined ? null : formatTransaction(found.tx, found.from, found.at);

export async function eth_getTransactionByHash(
  [hash]: EthGetTransactionByHashParams,
  ctx: HandlerContext,
): Promise<EthGetTransactionByHashResult> {
  return (
    json(await findTransaction(engineOf(ctx), hash)) ??
    upstreamHistory<Transaction>(ctx, 'eth_getTransactionByHash', [hash], (t) => t.blockNumber ?? undefined)
  );
}

export async function eth_getTransactionByBlockHashAndIndex(
  [blockHash, index]: EthGetTransactionByBlockHashAndIndexParams,
  ctx: HandlerContext,
): Promise<EthGetTransactionByBlockHashAndIndexResult> {
  const params = [blockHash, index];
  const history = await fromForkHistory<Transaction>(ctx, blockHash, 'eth_getTransactionByBlockHashAndIndex', params);
  if (history !== undefined) return history.answer;
  const engine = engineOf(ctx);
  return json(await transactionAt(engine, await findBlockByHash(engine, blockHash), index));
}

export async function eth_getTransactionByBlockNumberAndIndex(
  [block, index]: EthGetTransactionByBlockNumberAndIndexParams,
  ctx: HandlerContext,
): Promise<EthGetTransactionByBlockNumberAndIndexResult> {
  const history = await fromForkHistory<Transaction>(ctx, block, 'eth_getTransactionByBlockNumberAndIndex', [
    block,
    index,
  ]);
  if (history !== undefined) return history.answer;
  const engine = engineOf(ctx);
  return json(await transactionAt(engine, await findBlock(engine, block), index));
}

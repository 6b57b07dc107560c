/** eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter: install a polled filter. */
import type {
  EthNewBlockFilterParams,
  EthNewBlockFilterResult,
  EthNewFilterParams,
  EthNewFilterResult,
  EthNewPendingTransactionFilterParams,
  EthNewPendingTransactionFilterResult,
} from '../../generated/types.js';
import { engineOf } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { toQuantity } from '../hex.js';
import { checkFilterRange, criteriaOf, filterBoundOf, rpcErrorOf } from './log-filter.js';

export async function eth_newFilter([filter]: EthNewFilterParams, ctx: HandlerContext): Promise<EthNewFilterResult> {
  checkFilterRange(filter);
  const fromBlock = filterBoundOf(filter.fromBlock);
  const toBlock = filterBoundOf(filter.toBlock);
  const id = await engineOf(ctx)
    .logs.filters.newLogFilter({
      ...criteriaOf(filter),
      ...(fromBlock !== undefined ? { fromBlock } : {}),
      ...(toBlock !== undefined ? { toBlock } : {}),
    })
    .catch(rpcErrorOf);
  return toQuantity(id);
}

export async function eth_newBlockFilter(
  _params: EthNewBlockFilterParams,
  ctx: HandlerContext,
): Promise<EthNewBlockFilterResult> {
  return toQuantity(await engineOf(ctx).logs.filters.newBlockFilter().catch(rpcErrorOf));
}

export async function eth_newPendingTransactionFilter(
  _params: EthNewPendingTransactionFilterParams,
  ctx: HandlerContext,
): Promise<EthNewPendingTransactionFilterResult> {
  return toQuantity(await engineOf(ctx).logs.filters.newPendingTransactionFilter().catch(rpcErrorOf));
}

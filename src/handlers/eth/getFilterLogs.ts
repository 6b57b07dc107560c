import type { EthGetFilterLogsParams, EthGetFilterLogsResult } from '../../generated/types.js';
import { engineOf } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { formatLog } from '../format/index.js';
import { fromQuantity } from '../hex.js';
import { rpcErrorOf } from './log-filter.js';

/** Every log of the filter's range now, under the eth_getLogs limits; [] for block and transaction filters. */
export async function eth_getFilterLogs(
  [filterId]: EthGetFilterLogsParams,
  ctx: HandlerContext,
): Promise<EthGetFilterLogsResult> {
  const logs = await engineOf(ctx).logs.filters.filterLogs(fromQuantity(filterId)).catch(rpcErrorOf);
  return logs.map(formatLog);
}

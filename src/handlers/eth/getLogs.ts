import type { EthGetLogsParams, EthGetLogsResult } from '../../generated/types.js';
import { engineOf } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { formatLog } from '../format/index.js';
import { logQueryOf, rpcErrorOf } from './log-filter.js';

/** Matching logs in chain order, from the log index; bounded by the node's range and result limits (-32005). */
export async function eth_getLogs([filter]: EthGetLogsParams, ctx: HandlerContext): Promise<EthGetLogsResult> {
  const engine = engineOf(ctx);
  const logs = await engine.logs.queries.queryLogs(logQueryOf(engine, filter)).catch(rpcErrorOf);
  return logs.map(formatLog);
}

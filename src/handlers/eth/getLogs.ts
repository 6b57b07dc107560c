import type { EthGetLogsParams, EthGetLogsResult } from '../../generated/types.js';
import type { Log, LogQuery } from '../../chain/index.js';
import { engineOf, findBlockByHash } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { readsOf } from '../fork-history.js';
import { logQueryOf, rpcErrorOf } from './log-filter.js';

/**
 * Matching logs in chain order, from the log index; bounded by the node's range and result limits (-32602). On a fork,
 * the part of the range at or below the base (or a block hash there) is the upstream's history: its logs are asked
 * of the upstream, as Anvil does, and the blocks mined here are read here. A range over recent blocks whose logs are
 * all in memory is answered in this turn (no promise: the dispatcher writes a sync answer at once).
 */
export function eth_getLogs(
  [filter]: EthGetLogsParams,
  ctx: HandlerContext,
): EthGetLogsResult | Promise<EthGetLogsResult> {
  const engine = engineOf(ctx);
  const query = logQueryOf(engine, filter);
  const reads = readsOf(ctx);
  const now = reads.logsNow(query, (query) => {
    try {
      return engine.logs.queries.queryLogsNow(query);
    } catch (err) {
      return rpcErrorOf(err);
    }
  });
  if (now !== undefined) return now;
  const local = async (query: LogQuery): Promise<Log[]> => {
    // A block whose receipts are not backfilled yet has no logs known (the range check is the query's own).
    if ('blockHash' in query && engine.chain.history.frontier() !== undefined)
      await findBlockByHash(engine, filter.blockHash!);
    return engine.logs.queries.queryLogs(query).catch(rpcErrorOf);
  };
  return reads.logs(filter, query, local);
}

import type { EthGetLogsParams, EthGetLogsResult, Log } from '../../generated/types.js';
import { engineOf, findBlockByHash } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { formatLog } from '../format/index.js';
import { forkBaseOf, historyHeightOf, upstreamHistory } from '../fork-history.js';
import { toQuantity } from '../hex.js';
import { logQueryOf, rpcErrorOf } from './log-filter.js';

/**
 * Matching logs in chain order, from the log index; bounded by the node's range and result limits (-32602). On a fork,
 * the part of the range at or below the base (or a block hash there) is the upstream's history: its logs are asked
 * of the upstream, as Anvil does, and the blocks mined here are read here.
 */
export async function eth_getLogs([filter]: EthGetLogsParams, ctx: HandlerContext): Promise<EthGetLogsResult> {
  const engine = engineOf(ctx);
  let query = logQueryOf(engine, filter);
  const base = forkBaseOf(ctx);
  if (base !== undefined && 'blockHash' in query) {
    const height = await historyHeightOf(ctx, filter.blockHash!);
    if (height !== undefined && height !== null)
      return (await upstreamHistory<Log[]>(ctx, 'eth_getLogs', [filter], () => toQuantity(height))) ?? [];
  }
  let upstream: Log[] = [];
  if (base !== undefined && 'fromBlock' in query && query.fromBlock <= base && query.fromBlock <= query.toBlock) {
    const to = query.toBlock < base ? query.toBlock : base;
    const below = { ...filter, fromBlock: toQuantity(query.fromBlock), toBlock: toQuantity(to) };
    upstream = (await upstreamHistory<Log[]>(ctx, 'eth_getLogs', [below], () => toQuantity(to))) ?? [];
    if (query.toBlock <= base) return upstream;
    query = { ...query, fromBlock: base + 1n };
  }
  // A block whose receipts are not backfilled yet has no logs known (the range check is the query's own).
  if ('blockHash' in query && engine.chain.history.frontier() !== undefined)
    await findBlockByHash(engine, filter.blockHash!);
  const logs = await engine.logs.queries.queryLogs(query).catch(rpcErrorOf);
  return [...upstream, ...logs.map(formatLog)];
}

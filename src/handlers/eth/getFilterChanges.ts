import type { EthGetFilterChangesParams, EthGetFilterChangesResult } from '../../generated/types.js';
import { engineOf } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { formatLog } from '../format/index.js';
import { fromQuantity, hexFromBytes } from '../hex.js';
import { rpcErrorOf } from './log-filter.js';

/** What the filter saw since the previous poll: logs (with removed copies after a reorg) or hashes. */
export async function eth_getFilterChanges(
  [filterId]: EthGetFilterChangesParams,
  ctx: HandlerContext,
): Promise<EthGetFilterChangesResult> {
  const changes = await engineOf(ctx).logs.filters.changes(fromQuantity(filterId)).catch(rpcErrorOf);
  return changes.kind === 'logs' ? changes.logs.map(formatLog) : changes.hashes.map(hexFromBytes);
}

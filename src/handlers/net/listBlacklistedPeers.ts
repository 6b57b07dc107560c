import type { NetListBlacklistedPeersParams, NetListBlacklistedPeersResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { peersOf } from './peer-service.js';

/** The live blacklist entries (IP addresses and node ids) with their reasons and times. */
export function net_listBlacklistedPeers(
  _params: NetListBlacklistedPeersParams,
  ctx: HandlerContext,
): NetListBlacklistedPeersResult {
  return peersOf(ctx)
    .blacklist()
    .map(({ id, reason, addedAt, expiresAt }) => ({ id, reason, addedAt, expiresAt }));
}

import type { NetAddToBlacklistParams, NetAddToBlacklistResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { peerCall } from './peer-service.js';

/** What net_listBlacklistedPeers shows when the caller gave no reason. */
const DEFAULT_REASON = 'added by operator';

/**
 * Blocks an IP address, a node id, or the peer of a connection id, for `duration` seconds (null or omitted:
 * permanently). An address of none of these forms answers -32602.
 */
export function net_addToBlacklist(
  [address, duration, reason]: NetAddToBlacklistParams,
  ctx: HandlerContext,
): NetAddToBlacklistResult {
  peerCall(ctx, (peers) => peers.addToBlacklist(address, duration ?? null, reason ?? DEFAULT_REASON));
  return true;
}

import type { NetRemoveFromBlacklistParams, NetRemoveFromBlacklistResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { peerCall } from './peer-service.js';

/** false when nothing was listed under that address, so a typo shows up (the original node always said true). */
export function net_removeFromBlacklist(
  [address]: NetRemoveFromBlacklistParams,
  ctx: HandlerContext,
): NetRemoveFromBlacklistResult {
  return peerCall(ctx, (peers) => peers.removeFromBlacklist(address));
}

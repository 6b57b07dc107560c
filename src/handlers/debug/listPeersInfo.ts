import type { DebugListPeersInfoParams, DebugListPeersInfoResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { formatPeerInfo } from '../net/peer-format.js';
import { peersOf } from '../net/peer-service.js';

/** net_listPeers plus what each peer's Hello and eth Status announced; -32002 when peering is off. */
export function debug_listPeersInfo(_params: DebugListPeersInfoParams, ctx: HandlerContext): DebugListPeersInfoResult {
  return peersOf(ctx).peerDetails().map(formatPeerInfo);
}

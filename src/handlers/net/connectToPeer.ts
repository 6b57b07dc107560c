import type { NetConnectToPeerParams, NetConnectToPeerResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { peerCall } from './peer-service.js';

/**
 * Queues a dial and answers true at once (the outcome shows in net_listPeers). The schema already refused
 * URLs without the enode shape; the service refuses the rest it cannot use (-32602 naming the problem).
 */
export function net_connectToPeer([enode]: NetConnectToPeerParams, ctx: HandlerContext): NetConnectToPeerResult {
  peerCall(ctx, (peers) => peers.connect(enode));
  return true;
}

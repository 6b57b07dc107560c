/**
 * How the peer handlers (net_* peer methods, debug_listPeersInfo) reach the devp2p service, and how its
 * refusals become JSON-RPC errors.
 *
 * Peering switched off by configuration answers -32002 "resource unavailable", as mining on a network without
 * proof-of-work does: the method exists and works on a node that runs peering, so -32004 (reserved for methods
 * this node cannot serve at all) would mislead, and the message says how to turn it on.
 */
import { PeerInputError, type PeerService } from '../../p2p/types.js';
import { ErrorCode, RpcError, invalidParams } from '../../rpc/errors.js';
import type { HandlerContext } from '../../rpc/context.js';

export const PEERING_DISABLED =
  'Peering is off on this node: restart it with --p2p (network.p2p.enabled = true); test mode turns it off by default.';

/** The running peer service, or -32002 when peering is off. */
export function peersOf(ctx: HandlerContext): PeerService {
  const peers = ctx.node.peers;
  if (peers === undefined) throw new RpcError(ErrorCode.ResourceUnavailable, PEERING_DISABLED);
  return peers;
}

/** Runs one peer-service operation; input the service refuses (a bad enode URL or address) answers -32602 with its reason. */
export function peerCall<T>(ctx: HandlerContext, operation: (peers: PeerService) => T): T {
  const peers = peersOf(ctx);
  try {
    return operation(peers);
  } catch (error) {
    if (error instanceof PeerInputError) throw invalidParams(error.message);
    throw error;
  }
}

import { openrpcDocument } from '../../generated/openrpc.js';
import type { RpcDiscoverParams, RpcDiscoverResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';

/** The OpenRPC document this node was generated from (held in memory, parsed on the first call; no file read per call). */
export function rpc_discover(_params: RpcDiscoverParams, _ctx: HandlerContext): RpcDiscoverResult {
  return openrpcDocument() as RpcDiscoverResult;
}

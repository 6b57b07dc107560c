import type { Web3ClientVersionParams, Web3ClientVersionResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';

/** `svc-node/v<version>/<platform>-<arch>/node<version>`, fixed at start-up. */
export function web3_clientVersion(_params: Web3ClientVersionParams, ctx: HandlerContext): Web3ClientVersionResult {
  return ctx.node.clientVersion;
}

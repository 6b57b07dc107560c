import type { NetVersionParams, NetVersionResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';

/** The decimal network id: "1337" on dev, "63" on mordor, "61" on etc. */
export function net_version(_params: NetVersionParams, ctx: HandlerContext): NetVersionResult {
  return ctx.node.network.netVersion;
}

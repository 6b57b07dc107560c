import type { NetListeningParams, NetListeningResult } from '../../generated/types.js';
import type { HandlerContext } from '../context.js';

/** The RPC server answering this call is listening; p2p listening becomes part of this when peers exist. */
export function net_listening(_params: NetListeningParams, _ctx: HandlerContext): NetListeningResult {
  return true;
}

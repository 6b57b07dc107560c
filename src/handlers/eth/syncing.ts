import type { EthSyncingParams, EthSyncingResult } from '../../generated/types.js';
import type { HandlerContext } from '../context.js';

/** This node has no block synchronisation yet: it is never behind a peer, so it is never syncing. */
export function eth_syncing(_params: EthSyncingParams, _ctx: HandlerContext): EthSyncingResult {
  return false;
}

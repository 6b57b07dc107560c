import type { SyncProgress } from '../../p2p/types.js';
import type { EthSyncingParams, EthSyncingResult, SyncingStatus } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { toQuantity } from '../hex.js';

/** The wire form of sync progress, shared with the `syncing` subscription. Full sync only: no state counts. */
export function formatSyncProgress(progress: SyncProgress): SyncingStatus {
  return {
    startingBlock: toQuantity(progress.startingBlock),
    currentBlock: toQuantity(progress.currentBlock),
    highestBlock: toQuantity(progress.highestBlock),
  };
}

/** false when not syncing, or when peering is off (no peer can be ahead of a node that has none). */
export function eth_syncing(_params: EthSyncingParams, ctx: HandlerContext): EthSyncingResult {
  const progress = ctx.node.peers?.syncProgress() ?? null;
  return progress === null ? false : formatSyncProgress(progress);
}

import type { SyncProgress } from '../../p2p/types.js';
import type { EthSyncingParams, EthSyncingResult, SyncingStatus } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { toQuantity } from '../hex.js';

/** The wire form of sync progress, shared with the `syncing` subscription; a snap sync adds its phase and counts. */
export function formatSyncProgress(progress: SyncProgress): SyncingStatus {
  const snap = progress.snap;
  return {
    startingBlock: toQuantity(progress.startingBlock),
    currentBlock: toQuantity(progress.currentBlock),
    highestBlock: toQuantity(progress.highestBlock),
    ...(snap !== undefined
      ? {
          snapPhase: snap.phase,
          pivotBlock: toQuantity(snap.pivot),
          syncedAccounts: toQuantity(BigInt(snap.accounts)),
          syncedSlots: toQuantity(BigInt(snap.slots)),
          syncedCodes: toQuantity(BigInt(snap.codes)),
          healedNodes: toQuantity(BigInt(snap.healedNodes)),
          pendingHealNodes: toQuantity(BigInt(snap.pendingHealNodes)),
        }
      : {}),
  };
}

/** false when not syncing, or when peering is off (no peer can be ahead of a node that has none). */
export function eth_syncing(_params: EthSyncingParams, ctx: HandlerContext): EthSyncingResult {
  const progress = ctx.node.peers?.syncProgress() ?? null;
  return progress === null ? false : formatSyncProgress(progress);
}

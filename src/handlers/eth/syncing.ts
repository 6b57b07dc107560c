import type { HistoryBackfillProgress, SyncProgress } from '../../p2p/types.js';
import type { EthSyncingParams, EthSyncingResult, SyncingStatus } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { toQuantity } from '../hex.js';

/** The wire form of sync progress, shared with the `syncing` subscription; a snap sync adds its phase and counts. */
export function formatSyncProgress(progress: SyncProgress, history?: HistoryBackfillProgress | null): SyncingStatus {
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
    ...(history != null
      ? {
          pivotBlock: toQuantity(history.pivot),
          backfilledBlocks: toQuantity(history.backfilledBlocks),
          backfillTarget: toQuantity(history.backfillTarget),
        }
      : {}),
  };
}

/**
 * false when not syncing, or when peering is off (no peer can be ahead of a node that has none). After a snap sync,
 * while the history below its pivot is backfilled, an object even once the head has caught up: the node does not
 * yet answer for all of its chain (geth reports its transaction indexing the same way).
 */
export function eth_syncing(_params: EthSyncingParams, ctx: HandlerContext): EthSyncingResult {
  const peers = ctx.node.peers;
  const progress = peers?.syncProgress() ?? null;
  const history = peers?.historyBackfill?.() ?? null;
  if (progress !== null) return formatSyncProgress(progress, history);
  if (history === null) return false;
  const head = ctx.node.engine?.chain.getHead().header.number ?? history.pivot;
  return formatSyncProgress({ startingBlock: history.pivot, currentBlock: head, highestBlock: head }, history);
}

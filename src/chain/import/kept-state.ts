/**
 * The state the last executed block finished on, for the import of its child: a run of imported blocks (a history
 * file, a peer's chain) continues on one state manager instead of opening the trie, the library's caches and a
 * state manager per block (~100 µs of a near-empty block's import, most of it the library's per-instance debug
 * loggers), and the accounts it touched (a miner's coinbase, block after block) stay decoded in its caches.
 *
 * Kept only once its block became the head, and taken only while that block still is the head, under the very same
 * Common: the head's state is never pruned, and its root is what the child's parent root must be. Dropped for a
 * fresh one after a bounded run, as its ordered-map caches never evict (every account and slot touched stays).
 */
import type { Common } from '@ethereumjs/common';
import { equalsBytes } from '@ethereumjs/util';
import type { OpenedState } from '../state/state-view.js';

/** Blocks run on one kept state before a fresh one is opened. */
const KEPT_BLOCKS = 1024;
/** Gas run on one kept state before a fresh one is opened (about one full block's first touches, as warm-state.ts). */
const KEPT_GAS = 30_000_000n;

interface Kept {
  /** The block whose post-state this is. */
  readonly hash: Uint8Array;
  readonly state: OpenedState;
  readonly common: Common;
  readonly blocks: number;
  readonly gas: bigint;
}

export class KeptState {
  private kept: Kept | undefined;
  private taken: Kept | undefined;

  /**
   * The state for a child of `parentHash` (whose post-state root is `parentRoot`) under `common`, when it is kept,
   * still at that root, and `parentHash` is still the head;
   * emptied either way (a failed execution leaves a state half-moved: `keep` alone hands it back).
   */
  take(parentHash: Uint8Array, parentRoot: Uint8Array, headHash: Uint8Array, common: Common): OpenedState | undefined {
    const kept = this.kept;
    this.kept = undefined;
    this.taken = undefined;
    if (kept === undefined || kept.common !== common) return undefined;
    if (!equalsBytes(kept.hash, parentHash) || !equalsBytes(headHash, parentHash)) return undefined;
    // A dev state edit in place gives the head another post-state under the same hash (state/edited-roots.ts).
    if (!equalsBytes(kept.state.stateManager.trieRoot(), parentRoot)) return undefined;
    if (kept.blocks >= KEPT_BLOCKS || kept.gas >= KEPT_GAS) return undefined;
    // The parent's nodes are written and remembered by the node store: this block's batch gets its own.
    kept.state.buffer.pending.clear();
    this.taken = kept;
    return kept.state;
  }

  /** Block `hash`, executed on `state` with `gasUsed`, is the head now: its child may continue on `state`. */
  keep(hash: Uint8Array, state: OpenedState, common: Common, gasUsed: bigint): void {
    const before = this.taken?.state === state ? this.taken : undefined;
    this.taken = undefined;
    this.kept = {
      hash,
      state,
      common,
      blocks: (before?.blocks ?? 0) + 1,
      gas: (before?.gas ?? 0n) + gasUsed,
    };
  }

  drop(): void {
    this.kept = undefined;
    this.taken = undefined;
  }
}

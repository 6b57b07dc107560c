/**
 * Opening the flat state (state/flat-table.ts) with the chain: every chain but a forked one keeps it (a fork's tries
 * are partial, so it could not be walked); the readers find it as `TrieNodeStore.flat`.
 */
import { DEFAULT_FLAT_LAYER_LIMITS, type FlatLayerLimits } from '../state/flat-layers.js';
import { enableFlatBuild } from '../state/flat-build.js';
import type { TrieNodeStore } from '../state/trie-db.js';
import type { ChainView } from '../view/chain-view.js';
import type { OpenOptions } from './open-options.js';

/** Diff layers for the states a node keeps (`state.keep-states`). */
export function flatLayerLimits(opts: OpenOptions): FlatLayerLimits {
  return { ...DEFAULT_FLAT_LAYER_LIMITS, moves: opts.retention?.keepStates ?? DEFAULT_FLAT_LAYER_LIMITS.moves };
}

/** After the head is known: takes the stored table (or the one the genesis write just filled), else builds one. */
export async function openFlatState(view: ChainView, nodes: TrieNodeStore): Promise<void> {
  const flat = view.flat;
  enableFlatBuild(flat);
  if (flat.mode === 'off') await flat.open(view.stateRootAfter(view.getHead().header));
  nodes.flat = flat;
}

/**
 * Parent states that replays finished on, handed to the next replay on the same parent state: a trace of a block
 * opens its parent's state, builds a VM over it (~0.3 ms: the EVM's opcode table, its loggers) and reads the
 * accounts the block touches, which cost as much as tracing a 1,000-opcode transaction with callTracer. A replay
 * that ends without a throw reverts its transactions (BlockRunner.discard: the state is the parent's again, its
 * caches hold the parent's values) and leaves the state here; the next replay on that parent state, under the same
 * Common and node store, takes it (its VM is kept with it, exec/block-runner.ts) instead of opening one. A state is
 * held by one replay at a time (taken out while it runs), and a few per chain are kept, the least recently left
 * dropped first. Only states opened as usual come here (not ones rebuilt by re-execution, which are the request's).
 * Nothing else lives in an entry, so no trace's answer depends on an earlier one: answers stay as a fresh replay's.
 */
import type { Common } from '@ethereumjs/common';
import { hexKey } from '../db/hex-key.js';
import type { OpenedState } from '../state/state-view.js';
import type { TrieNodeStore } from '../state/trie-db.js';

/** Idle states kept per chain: traces of the last few blocks, as explorers and debuggers ask for. */
const KEPT = 4;

interface Idle {
  readonly opened: OpenedState;
  readonly common: Common;
  readonly store: TrieNodeStore;
}

const idleByChain = new WeakMap<object, Map<string, Idle>>();

/** An idle state at `stateRoot` opened under `common` over `store`, taken out; undefined when there is none. */
export function takeState(
  chain: object,
  stateRoot: Uint8Array,
  common: Common,
  store: TrieNodeStore,
): OpenedState | undefined {
  const idle = idleByChain.get(chain);
  const key = hexKey(stateRoot);
  const entry = idle?.get(key);
  if (entry === undefined) return undefined;
  idle!.delete(key);
  return entry.common === common && entry.store === store ? entry.opened : undefined;
}

/** Leaves a state back at `stateRoot` for the next replay on it. */
export function leaveState(
  chain: object,
  stateRoot: Uint8Array,
  common: Common,
  store: TrieNodeStore,
  opened: OpenedState,
): void {
  let idle = idleByChain.get(chain);
  if (idle === undefined) idleByChain.set(chain, (idle = new Map()));
  const key = hexKey(stateRoot);
  idle.delete(key);
  idle.set(key, { opened, common, store });
  while (idle.size > KEPT) idle.delete(idle.keys().next().value as string);
}

/**
 * Parent states that replays finished on, handed to the next replay on the same parent state: a trace of a block
 * opens its parent's state, builds a VM over it (~0.3 ms: the EVM's opcode table, its loggers) and reads the
 * accounts the block touches, which cost as much as tracing a 1,000-opcode transaction with callTracer. A replay
 * that ends without a throw reverts its transactions (BlockRunner.discard: the state is the parent's again, its
 * caches hold the parent's values) and leaves the state here; the next replay on that parent state, under the same
 * Common and node store, takes it (its VM is kept with it, exec/block-runner.ts) instead of opening one. A state is
 * held by one replay at a time (taken out while it runs), and a few per chain are kept, the least recently left
 * dropped first; a state comes back reverting, its revert run after the replay's answer is written (or by the next
 * replay on it, if that comes first). Only states opened as usual come here (not ones rebuilt by re-execution, which are the request's).
 * Nothing else lives in an entry, so no trace's answer depends on an earlier one: answers stay as a fresh replay's.
 */
import type { Common } from '@ethereumjs/common';
import { hexKey } from '../db/hex-key.js';
import type { OpenedState } from '../state/state-view.js';
import type { TrieNodeStore } from '../state/trie-db.js';

/** Idle states kept per chain: traces of the last few blocks, as explorers and debuggers ask for. */
const KEPT = 4;

/**
 * A state on its way back: its replay's revert, begun one turn of the event loop after the replay answered (the
 * caller writes the answer in the microtasks before), or at once by a replay that takes it sooner. Settles once.
 */
class Returning {
  private settled: Promise<OpenedState | undefined> | undefined;

  constructor(private readonly revert: () => Promise<OpenedState>) {}

  /** The state once reverted; undefined when the revert failed (the state is then dropped). */
  settle(): Promise<OpenedState | undefined> {
    this.settled ??= this.revert().then(
      (opened) => opened,
      () => undefined,
    );
    return this.settled;
  }
}

interface Idle {
  readonly opened: OpenedState | Returning;
  readonly common: Common;
  readonly store: TrieNodeStore;
}

const idleByChain = new WeakMap<object, Map<string, Idle>>();

/**
 * An idle state at `stateRoot` opened under `common` over `store`, taken out (a promise while it is still being
 * reverted: the taker waits for the revert, begun now if it was not yet); undefined when there is none.
 */
export function takeState(
  chain: object,
  stateRoot: Uint8Array,
  common: Common,
  store: TrieNodeStore,
): OpenedState | Promise<OpenedState | undefined> | undefined {
  const idle = idleByChain.get(chain);
  const key = hexKey(stateRoot);
  const entry = idle?.get(key);
  if (entry === undefined) return undefined;
  idle!.delete(key);
  if (entry.common !== common || entry.store !== store) return undefined;
  return entry.opened instanceof Returning ? entry.opened.settle() : entry.opened;
}

/** Leaves a state back at `stateRoot` for the next replay on it. */
export function leaveState(
  chain: object,
  stateRoot: Uint8Array,
  common: Common,
  store: TrieNodeStore,
  opened: OpenedState,
): void {
  keep(chain, hexKey(stateRoot), { opened, common, store });
}

/**
 * Leaves a state whose replay's transactions `revert` undoes (giving the state back at `stateRoot`), reverting it one
 * turn of the event loop from now: the replay's answer is serialised and written first.
 */
export function leaveStateReverting(
  chain: object,
  stateRoot: Uint8Array,
  common: Common,
  store: TrieNodeStore,
  revert: () => Promise<OpenedState>,
): void {
  const key = hexKey(stateRoot);
  const returning = new Returning(revert);
  const entry: Idle = { opened: returning, common, store };
  const idle = keep(chain, key, entry);
  setImmediate(() => {
    // Taken meanwhile (its taker began the revert) or dropped: nothing to do here.
    if (idle.get(key) !== entry) return;
    void returning.settle().then((opened) => {
      if (idle.get(key) !== entry) return;
      if (opened === undefined) idle.delete(key);
      else idle.set(key, { opened, common, store }); // same key: its place in the eviction order stays
    });
  });
}

function keep(chain: object, key: string, entry: Idle): Map<string, Idle> {
  let idle = idleByChain.get(chain);
  if (idle === undefined) idleByChain.set(chain, (idle = new Map()));
  idle.delete(key);
  idle.set(key, entry);
  while (idle.size > KEPT) idle.delete(idle.keys().next().value as string);
  return idle;
}

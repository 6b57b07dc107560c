/**
 * A state the node does not keep (`--gcmode full`), rebuilt for one trace: the blocks from the nearest kept state up
 * to it re-executed through the import's runner, their trie nodes held in the opened state's buffer and dropped with
 * it, so nothing is written and the pruner never meets them. The work is the trace request's: its deadline and its
 * memory budget (the buffer's nodes) bound it as they bound the trace itself.
 */
import type { BlockHeader } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { equalsBytes } from '@ethereumjs/util';
import { BlockRunner } from '../exec/block-runner.js';
import { type OpenedState, openState } from '../state/state-view.js';
import type { StateTrieCaches } from '../state/state-trie.js';
import type { TrieNodeStore } from '../state/trie-db.js';
import type { TraceBudget } from './budget.js';
import { timedOut, type Deadline } from './hooks.js';
import type { TraceChain } from './replay.js';
import { TraceLimitError, TraceReplayError } from './types.js';

/** An opened state rebuilt by re-execution, with the Common it was opened under. */
export interface RebuiltState {
  readonly opened: OpenedState;
  readonly common: Common;
  readonly caches: StateTrieCaches;
}

/**
 * The state after `header` for a replay: undefined when it is kept (open it as usual), else rebuilt from the nearest
 * kept state below it. Throws StateNotKeptError past `network.rpc.debug.reexec` blocks.
 */
export async function rebuiltState(
  chain: TraceChain,
  header: BlockHeader,
  deadline: Deadline | undefined,
  budget: TraceBudget,
): Promise<RebuiltState | undefined> {
  const start = await chain.replayStart(header);
  if (start.number === header.number) return undefined;
  const path: BlockHeader[] = [];
  for (let h = header; h.number > start.number; ) {
    path.push(h);
    const parent = await chain.getHeader(h.parentHash);
    if (parent === undefined) throw new TraceReplayError(`re-execution: parent of block ${h.number} not found`);
    h = parent;
  }
  path.reverse();
  const { store } = chain.replayBase(start);
  // No shared trie caches: the rebuilt nodes would stay in them past the trace (and push out the head's hot ones).
  const caches = privateCaches(store);
  let state: RebuiltState | undefined;
  let root = chain.replayBase(start).stateRoot;
  const held = { entries: 0, bytes: 0 };
  let prev = start;
  for (const h of path) {
    checkDeadline(deadline);
    if (chain.executes(h)) {
      const block = await chain.getBlock(h.hash());
      if (block === undefined) throw new TraceReplayError(`re-execution: block ${h.number} not found`);
      const common = chain.commonAt(h.number);
      const on = state === undefined ? openState(store, common, root, caches) : continued(state, store, common, root);
      const runner = await BlockRunner.start({
        store,
        common,
        parentStateRoot: root,
        envBlock: block,
        ancestors: chain.replayBase(prev).ancestors,
        state: on,
      });
      for (let i = 0; i < block.transactions.length; i++) {
        const outcome = await runner.apply(block.transactions[i]);
        if (!outcome.ok)
          throw new TraceReplayError(
            `re-executing block ${h.number}: transaction ${i} cannot be applied: ${outcome.reason}`,
          );
        if ((i & 15) === 15) checkDeadline(deadline);
      }
      const result = await runner.finish(chain.rewardsOf(block));
      if (!equalsBytes(result.stateRoot, chain.replayBase(h).stateRoot))
        throw new TraceReplayError(`re-executing block ${h.number} gave another state root than the stored one`);
      state = { opened: result.state!, common, caches };
      root = result.stateRoot;
      charge(budget, state.opened, held, start.number, header.number);
    }
    prev = h;
  }
  return state;
}

/**
 * `state` under `common`: the same opened state when its Common is that one, else a state opened under `common` at
 * `root` whose buffer starts with the nodes re-executed so far (they are in no store).
 */
export function continued(state: RebuiltState, store: TrieNodeStore, common: Common, root: Uint8Array): OpenedState {
  if (state.common === common) return state.opened;
  const next = openState(store, common, root, state.caches);
  for (const [key, value] of state.opened.buffer.pending) next.buffer.pending.set(key, value);
  return next;
}

/**
 * Charges the nodes the buffer gained since the last block (a buffer only grows, in insertion order; a node written
 * again keeps its place and its bytes, its key being its hash).
 */
function charge(
  budget: TraceBudget,
  opened: OpenedState,
  held: { entries: number; bytes: number },
  from: bigint,
  to: bigint,
): void {
  let bytes = 0;
  let seen = 0;
  for (const [key, value] of opened.buffer.pending) {
    // A hex key as a heap string, and its node as a byte array with its header.
    if (seen++ >= held.entries) bytes += 16 + key.length + 64 + value.length;
  }
  held.entries = seen;
  held.bytes += bytes;
  try {
    budget.charge(bytes);
  } catch (err) {
    if (!(err instanceof TraceLimitError)) throw err;
    throw new TraceLimitError(
      err.cap,
      err.limit,
      `re-executing blocks ${from + 1n}..${to} to rebuild the state of block ${to}: ${err.message}`,
    );
  }
}

export function privateCaches(store: TrieNodeStore): StateTrieCaches {
  return store.trieCaches.missingNodeIsError === true ? { missingNodeIsError: true } : {};
}

function checkDeadline(deadline: Deadline | undefined): void {
  if (deadline !== undefined && performance.now() > deadline.at) throw timedOut(deadline);
}

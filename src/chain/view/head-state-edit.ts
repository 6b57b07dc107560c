/**
 * Writing the dev chain's state edits in place (the record is state/edited-roots.ts): the edit runs on the state
 * after the head, its trie nodes and the new record go in one batch, and only once that is written do reads and
 * the next block follow the new root (a read in between still sees the old state whole).
 */
import { bytesToHex } from '@ethereumjs/util';
import type { WarmState } from '../exec/warm-state.js';
import type { ChainView } from './chain-view.js';
import { type ChainDB, WriteBatch } from '../db/chain-db.js';
import { EditedRoots, type EditedRootsRecord } from '../state/edited-roots.js';
import { openState, type OpenedState } from '../state/state-view.js';
import type { TrieNodeStore } from '../state/trie-db.js';

export interface HeadStateEditParts {
  readonly view: ChainView;
  readonly nodes: TrieNodeStore;
  readonly db: ChainDB;
  readonly warm: WarmState;
}

export type StateEditWork = (state: OpenedState['stateManager']) => Promise<void>;

/** Runs `work` on the state after the head and makes the result the head's post-state. */
export async function editHeadState(parts: HeadStateEditParts, work: StateEditWork): Promise<void> {
  const head = parts.view.getHead();
  const { stateManager, buffer } = openState(
    parts.nodes,
    parts.view.commonAt(head.header.number),
    parts.view.stateRootAfter(head.header),
  );
  await stateManager.checkpoint();
  await work(stateManager);
  await stateManager.commit();
  const record = parts.view.edited.withEdit(head.hash(), await stateManager.getStateRoot());
  await writeEditedState(parts, record, buffer);
}

/** Stores `record` (with `nodes`, the trie nodes its new roots need), then reads and the next block follow it. */
export async function writeEditedState(
  parts: HeadStateEditParts,
  record: EditedRootsRecord,
  nodes?: OpenedState['buffer'],
): Promise<void> {
  const { view } = parts;
  const batch = new WriteBatch();
  nodes?.writeTo(batch);
  EditedRoots.stage(batch, record);
  const head = view.getHead();
  await view.flat.writeHead(batch, record.get(bytesToHex(head.hash())) ?? head.header.stateRoot);
  if (nodes !== undefined) parts.nodes.remember(nodes.pending);
  const changed = new Set([...view.edited.record.keys(), ...record.keys()]);
  view.edited.replace(record);
  for (const hash of changed) view.forgetState(hash);
  // The miner's kept state is the head's state before the edit.
  parts.warm.drop();
}

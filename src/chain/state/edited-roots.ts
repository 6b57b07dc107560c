/**
 * The dev chain's state edits in place (anvil_setBalance and friends, as Anvil does them): an edit changes the state
 * after the head without a new block, so the head keeps its number and header while its post-state moves to another
 * root. This records that root per block hash; every reader of "the state after block B" (reads, calls, assembly of
 * B's child, import and tracing of it) asks `rootAfter(B)`, so the next mined block starts from the edited state and
 * its header's state root carries the edits.
 *
 * Kept in the database (meta `editedState`, written in the batch with the edit's trie nodes), so a restart keeps
 * the edits. Chains that never edit have an empty record and pay one size check per read.
 */
import type { BlockHeader } from '@ethereumjs/block';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import type { WriteBatch } from '../db/chain-db.js';
import { keys } from '../db/keys.js';

/** Block hash (hex) → the root of its post-state after the edits made while it was the head. */
export type EditedRootsRecord = ReadonlyMap<string, Uint8Array>;

export class EditedRoots {
  private roots: EditedRootsRecord = new Map();

  /** Reads the stored record (`bytes` of meta `editedState`; undefined: no block was edited). */
  load(bytes: Uint8Array | undefined): void {
    const roots = new Map<string, Uint8Array>();
    if (bytes !== undefined)
      for (const [hash, root] of RLP.decode(bytes) as Uint8Array[][]) roots.set(bytesToHex(hash), root);
    this.roots = roots;
  }

  /** The root of the state after `header`'s block: its header's, unless the block was edited as the head. */
  rootAfter(header: BlockHeader): Uint8Array {
    if (this.roots.size === 0) return header.stateRoot;
    return this.roots.get(bytesToHex(header.hash())) ?? header.stateRoot;
  }

  /** The whole record (a dev snapshot keeps it, its revert puts it back); never changed in place. */
  get record(): EditedRootsRecord {
    return this.roots;
  }

  /** The record with the post-state of block `hash` at `root`. */
  withEdit(hash: Uint8Array, root: Uint8Array): EditedRootsRecord {
    return new Map(this.roots).set(bytesToHex(hash), root);
  }

  /** Takes `record` as the one in force; call once `stage`'s batch (and the nodes under its roots) is written. */
  replace(record: EditedRootsRecord): void {
    this.roots = record;
  }

  /** Stages `record` as the stored one (empty: none). */
  static stage(batch: WriteBatch, record: EditedRootsRecord): void {
    if (record.size === 0) {
      batch.del(keys.meta('editedState'));
      return;
    }
    const pairs = [...record].map(([hash, root]) => [hexToBytes(hash as `0x${string}`), root]);
    batch.put(keys.meta('editedState'), RLP.encode(pairs));
  }
}

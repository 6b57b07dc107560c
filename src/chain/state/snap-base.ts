/**
 * The block a snap sync started from. A snap-synced node holds the state of that block and of every block after
 * it, never the state of earlier blocks (their trie nodes were never downloaded): state reads below the base must
 * say so instead of failing on a missing trie node or, worse, answering from a partial trie.
 *
 * Written once by the snap sync client when the base block's state is complete (every node of its trie present,
 * healing done), in the same batch as that block becomes the head; read by the engine's state lookups.
 */
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToBigInt } from '@ethereumjs/util';
import type { WriteBatch } from '../db/chain-db.js';
import { keys } from '../db/keys.js';

export interface SnapBase {
  readonly number: bigint;
  readonly hash: Uint8Array;
}

/** Adds the record to a batch (the batch that makes the base block's state readable). */
export function writeSnapBase(batch: WriteBatch, base: SnapBase): void {
  batch.put(keys.meta('snapBase'), RLP.encode([bigIntToUnpaddedBytes(base.number), base.hash]));
}

/** The stored record, from the bytes of `getMeta('snapBase')`; undefined when the node never snap-synced. */
export function decodeSnapBase(bytes: Uint8Array | undefined): SnapBase | undefined {
  if (bytes === undefined) return undefined;
  const [number, hash] = RLP.decode(bytes) as Uint8Array[];
  return { number: bytesToBigInt(number), hash };
}

/** The error message of a state read below the base, as the JSON-RPC layer shows it (-32000). */
export function stateNotHeldMessage(block: bigint, base: SnapBase): string {
  return `state of block ${block} is not held: this node was snap-synced at block ${base.number}`;
}

/** A state read of a block below the snap-sync base: the trie of that state was never downloaded. */
export class StateNotHeldError extends Error {
  constructor(
    readonly block: bigint,
    readonly base: SnapBase,
  ) {
    super(stateNotHeldMessage(block, base));
    this.name = 'StateNotHeldError';
  }
}

/** Throws StateNotHeldError when `block` lies below the base; nothing happens on a node that never snap-synced. */
export function assertStateHeld(block: bigint, base: SnapBase | undefined): void {
  if (base !== undefined && block < base.number) throw new StateNotHeldError(block, base);
}

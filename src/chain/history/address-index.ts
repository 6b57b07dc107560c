/**
 * The address index: which transactions an account sent or received, so that an account's history
 * costs reads in proportion to its own transactions, not to everything else in the range.
 *
 * Keys (table tag 'A', beside the chain tables of src/chain/db/keys.ts and the log index 'L'), empty values:
 *
 *   'A' address20 number8 blockHash32 txIndex4     the transaction at txIndex of that block has the
 *                                                  address as its sender or its recipient, created it, or
 *                                                  reached it by an internal call, a value transfer or a
 *                                                  SELFDESTRUCT (blocks executed here; a history file's
 *                                                  blocks list senders, recipients and creations)
 *
 * Like the log index, entries are written for every stored block (canonical or not) in the block's own
 * batch, are keyed by block hash and never change: a reorganisation needs no index work, and readers
 * keep the entries whose hash is the canonical one at that height.
 */
import type { WriteOp } from '../db/chain-db.js';
import type { KeyIterator } from '../logs/log-index.js';

export const ADDRESS_INDEX_TAG = 'A'.charCodeAt(0);
const MAX_U64 = (1n << 64n) - 1n;
const KEY_LENGTH = 1 + 20 + 8 + 32 + 4;

/** What the index needs of a block: ethereumjs `Block` satisfies it. */
export interface AddressIndexableBlock {
  hash(): Uint8Array;
  readonly header: { readonly number: bigint };
  readonly transactions: readonly { readonly to?: { readonly bytes: Uint8Array } | undefined }[];
}

/**
 * What the index needs of a receipt: the sender the execution recovered, the contract a creation deployed, and the
 * accounts internal calls reached when the block was executed here (TxReceipt satisfies it).
 */
export interface SenderReceipt {
  readonly from: Uint8Array;
  readonly contractAddress?: Uint8Array;
  readonly reached?: readonly Uint8Array[];
}

/** Ordered key reads on the chain database (`Blockchain.logIndex` satisfies it). */
export interface AddressIndexReader {
  keys(range: { gte: Uint8Array; lt: Uint8Array; reverse?: boolean }): KeyIterator;
}

/** One indexed transaction: where it is; not yet checked to be canonical. */
export interface AddressIndexEntry {
  readonly number: bigint;
  readonly blockHash: Uint8Array;
  readonly index: number;
}

function prefixOf(address: Uint8Array, number: bigint): Uint8Array {
  const key = new Uint8Array(1 + 20 + 8);
  key[0] = ADDRESS_INDEX_TAG;
  key.set(address, 1);
  new DataView(key.buffer).setBigUint64(21, number < 0n ? 0n : number > MAX_U64 ? MAX_U64 : number);
  return key;
}

function keyOf(address: Uint8Array, number: bigint, blockHash: Uint8Array, index: number): Uint8Array {
  const key = new Uint8Array(KEY_LENGTH);
  key.set(prefixOf(address, number));
  key.set(blockHash, 29);
  new DataView(key.buffer).setUint32(61, index);
  return key;
}

const EMPTY = new Uint8Array(0);

/** The index entries of a newly stored block, for the engine's per-block write batch. */
export function addressIndexWrites(block: AddressIndexableBlock, receipts: readonly SenderReceipt[]): WriteOp[] {
  const hash = block.hash();
  const number = block.header.number;
  const ops: WriteOp[] = [];
  block.transactions.forEach((tx, index) => {
    const receipt = receipts[index];
    const from = receipt.from;
    ops.push({ type: 'put', key: keyOf(from, number, hash, index), value: EMPTY });
    const to = tx.to?.bytes;
    if (to !== undefined && Buffer.compare(to, from) !== 0)
      ops.push({ type: 'put', key: keyOf(to, number, hash, index), value: EMPTY });
    const created = to === undefined ? receipt.contractAddress : undefined;
    if (created !== undefined) ops.push({ type: 'put', key: keyOf(created, number, hash, index), value: EMPTY });
    for (const address of receipt.reached ?? []) {
      // Each account once per transaction: the sender, recipient and creation are already there.
      if (Buffer.compare(address, from) === 0 || (to !== undefined && Buffer.compare(address, to) === 0)) continue;
      if (created !== undefined && Buffer.compare(address, created) === 0) continue;
      ops.push({ type: 'put', key: keyOf(address, number, hash, index), value: EMPTY });
    }
  });
  return ops;
}

/** Decodes an address-index key; undefined for a key of another table or of another length. */
export function decodeAddressIndexKey(
  key: Uint8Array,
): (AddressIndexEntry & { readonly address: Uint8Array }) | undefined {
  if (key.length !== KEY_LENGTH || key[0] !== ADDRESS_INDEX_TAG) return undefined;
  const view = new DataView(key.buffer, key.byteOffset, key.byteLength);
  return {
    address: key.slice(1, 21),
    number: view.getBigUint64(21),
    blockHash: key.slice(29, 61),
    index: view.getUint32(61),
  };
}

/**
 * Every entry of the address index in key order (address, then height), for offline consistency checks and index
 * rebuilds. A key of the table that does not decode comes back as `{ malformed: key }`.
 */
export async function* addressIndexEntries(
  reader: AddressIndexReader,
  chunk = 1024,
): AsyncGenerator<(AddressIndexEntry & { readonly address: Uint8Array }) | { readonly malformed: Uint8Array }> {
  const range = { gte: Uint8Array.of(ADDRESS_INDEX_TAG), lt: Uint8Array.of(ADDRESS_INDEX_TAG + 1) };
  for await (const key of scanKeys(reader, range, chunk))
    yield decodeAddressIndexKey(key) ?? { malformed: key.slice() };
}

/** The keys of `range` in order, read `chunk` at a time; the iterator is closed however the walk ends. */
async function* scanKeys(
  reader: AddressIndexReader,
  range: { gte: Uint8Array; lt: Uint8Array; reverse?: boolean },
  chunk: number,
): AsyncGenerator<Uint8Array> {
  const iterator = reader.keys(range);
  try {
    for (;;) {
      const keys = await iterator.nextv(chunk);
      if (keys.length === 0) return;
      yield* keys;
    }
  } finally {
    await iterator.close();
  }
}

/** The entries of `range` (one address's keys), in the range's order. */
async function* entriesIn(
  reader: AddressIndexReader,
  range: { gte: Uint8Array; lt: Uint8Array; reverse?: boolean },
  chunk: number,
): AsyncGenerator<AddressIndexEntry> {
  for await (const key of scanKeys(reader, range, chunk)) {
    const entry = decodeAddressIndexKey(key);
    if (entry !== undefined) yield entry;
  }
}

const READ_CHUNK = 1024;

export class AddressIndex {
  constructor(private readonly reader: AddressIndexReader) {}

  /**
   * Entries of `address` from block `start` on, towards the genesis block (`back`) or the head, in that order
   * (within a block, the last transaction first going back); the caller stops the walk when it has enough.
   */
  walk(address: Uint8Array, start: bigint, direction: 'back' | 'forward'): AsyncGenerator<AddressIndexEntry> {
    const back = direction === 'back';
    const range = {
      gte: prefixOf(address, back ? 0n : start),
      lt: back ? prefixOf(address, start + 1n) : prefixOf(address, MAX_U64),
      reverse: back,
    };
    // Small reads: a page usually stops after a few entries.
    return entriesIn(this.reader, range, 64);
  }

  /** Entries of `address` in blocks [from, to], ascending by height (canonical or not). */
  async entries(address: Uint8Array, from: bigint, to: bigint): Promise<AddressIndexEntry[]> {
    const out: AddressIndexEntry[] = [];
    const range = { gte: prefixOf(address, from), lt: prefixOf(address, to + 1n) };
    for await (const entry of entriesIn(this.reader, range, READ_CHUNK)) out.push(entry);
    return out;
  }
}

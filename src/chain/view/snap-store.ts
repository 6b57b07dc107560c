/**
 * What a snap sync writes into the chain database, and nothing else: trie nodes (content-addressed, so a node
 * from any pivot's trie is simply a true node), contract code, the header chain up to the pivot, the sync's own
 * progress record, and at the end the handover batch that makes the pivot the head.
 *
 * The invariant the sync relies on: a stored node's whole subtree is stored too (and, for an account leaf, its
 * storage trie and code). Range responses are built into complete little tries here and written whole; healed
 * nodes are written bottom-up by the caller. So "present" means "complete", and healing descends only into
 * missing nodes.
 */
import type { Block, BlockHeader } from '@ethereumjs/block';
import { CODEHASH_PREFIX } from '@ethereumjs/statemanager';
import { bigIntToUnpaddedBytes, bytesToUnprefixedHex, concatBytes, KECCAK256_RLP } from '@ethereumjs/util';
import type { ChainView } from './chain-view.js';
import { encodeRlp, type RlpItem } from '../codec/rlp-encode.js';
import { keccak256 } from '../base/crypto.js';
import type { BlockStore } from '../db/block-store.js';
import { type ChainDB, WriteBatch } from '../db/chain-db.js';
import { encodeNumber, keys } from '../db/keys.js';
import { writeSnapBase } from '../state/snap-base.js';
import type { TrieNodeStore } from '../state/trie-db.js';
import { toNibbles } from '../state/nibbles.js';
import { TrieBatch } from '../state/trie-batch.js';

/** One key/value of a range answer: the hashed trie key and the value as the trie stores it. */
export interface RangeEntry {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
}

/**
 * The nodes of the trie holding exactly `entries` (keys already hashed, no two alike), the root included, and its
 * root. Built in memory (TrieBatch.insertNow) and encoded bottom-up once.
 */
export async function buildRangeTrie(
  entries: readonly RangeEntry[],
): Promise<{ root: Uint8Array; nodes: ReadonlyArray<readonly [Uint8Array, Uint8Array]> }> {
  if (entries.length === 0) return { root: KECCAK256_RLP, nodes: [] };
  const batch = new TrieBatch({
    load: () => Promise.reject(new Error('a fresh range trie has no stored nodes')),
    hash: keccak256,
  });
  let top: ReturnType<TrieBatch['insertNow']> | undefined;
  for (const e of entries) if (e.value.length > 0) top = batch.insertNow(top, toNibbles(e.key), 0, e.value);
  if (top === undefined) return { root: KECCAK256_RLP, nodes: [] };
  const encoded = encodeRlp(batch.raw(top) as RlpItem);
  const root = keccak256(encoded);
  batch.writes.push([root, encoded]);
  return { root, nodes: batch.writes };
}

export class SnapStateStore {
  constructor(
    private readonly db: ChainDB,
    private readonly nodes: TrieNodeStore,
    private readonly store: BlockStore,
    private readonly view: ChainView,
    /** Told the base block once the handover batch is written (the history backfill starts below it). */
    private readonly onAdopted?: (base: bigint) => void,
  ) {}

  async hasNode(hash: Uint8Array): Promise<boolean> {
    return (await this.nodes.get(bytesToUnprefixedHex(hash))) !== undefined;
  }

  async hasCode(codeHash: Uint8Array): Promise<boolean> {
    return (await this.db.get(keys.state(concatBytes(CODEHASH_PREFIX, codeHash)))) !== undefined;
  }

  async readProgress(): Promise<Uint8Array | undefined> {
    return this.store.getMeta('snapSync');
  }

  /**
   * One atomic write: trie nodes (hash, encoding), codes, and the progress record (undefined: left as it is).
   * The caller passes only complete subtrees, so a crash between two writes breaks no invariant.
   */
  async write(
    nodes: Iterable<readonly [Uint8Array, Uint8Array]>,
    codes: Iterable<Uint8Array>,
    progress: Uint8Array | undefined,
    // Every write here is durable (writeNow); the option stays in the port for the callers that need it said.
    _options: { readonly durable?: boolean } = {},
  ): Promise<void> {
    const batch = new WriteBatch();
    for (const [hash, encoded] of nodes) batch.put(keys.state(hash), encoded);
    for (const code of codes) batch.put(keys.state(concatBytes(CODEHASH_PREFIX, keccak256(code))), code);
    if (progress !== undefined) batch.put(keys.meta('snapSync'), progress);
    // Straight to LevelDB, also under dev write-behind: these are the bulk of the sync's writes, and a phase change
    // (`durable`) must be on disk before it is logged and shown, since a kill may follow that sight.
    await this.db.writeNow(batch);
  }

  /**
   * Stores consecutive canonical headers (parent links already checked by the caller) with their numbers, total
   * difficulties and canonical index entries, and the progress record in the same batch. The head does not move:
   * these blocks have no state and no body until the handover and the backfill. Returns the last one's TD.
   */
  async storeHeaders(headers: readonly BlockHeader[], parentTd: bigint, progress: Uint8Array): Promise<bigint> {
    const batch = new WriteBatch();
    let td = parentTd;
    for (const header of headers) {
      const hash = header.hash();
      td += header.difficulty;
      batch
        .put(keys.header(hash), header.serialize())
        .put(keys.number(hash), encodeNumber(header.number))
        .put(keys.totalDifficulty(hash), bigIntToUnpaddedBytes(td))
        .put(keys.canonical(header.number), hash);
    }
    batch.put(keys.meta('snapSync'), progress);
    await this.db.write(batch);
    // On disk before the sync goes on: the last batch moves the record to the account phase, which eth_syncing
    // then shows at once, and a node killed at that sight must find that record (dev write-behind would queue it).
    await this.db.flushed();
    return td;
  }

  /**
   * The handover: the pivot's state is complete (its root node is stored). In one batch, the bodies of the top
   * blocks (the pivot and the few below it that the next imports' uncle checks read), the head pointer, the
   * snap base record, and the progress record removed; then the in-memory head follows.
   */
  async adoptPivot(blocks: readonly Block[], pivot: Block): Promise<void> {
    const td = await this.store.getTotalDifficulty(pivot.hash());
    if (td === undefined) throw new Error(`the pivot header ${pivot.header.number} is not stored`);
    if (!(await this.hasNode(pivot.header.stateRoot)))
      throw new Error(`the state of pivot ${pivot.header.number} is not complete`);
    const batch = new WriteBatch();
    for (const block of blocks) {
      const blockTd = await this.store.getTotalDifficulty(block.hash());
      if (blockTd === undefined) continue;
      // Receipts are not written: they come with the backfill, and none is better than a made-up one.
      this.store.stageBody(batch, block);
      this.store.stageCanonical(batch, block);
    }
    this.store.stageHead(batch, pivot.hash());
    const base = { number: pivot.header.number, hash: pivot.hash() };
    writeSnapBase(batch, base);
    batch.del(keys.meta('snapSync'));
    // The downloaded state is not a diff from the old head's: the flat table is built again for it.
    await this.view.flat.writeHead(batch, pivot.header.stateRoot, true);
    // Durable before it is announced, also under dev write-behind: a node killed after "snap sync done" has its base.
    await this.db.flushed();
    this.onAdopted?.(pivot.header.number);
    this.view.adoptSnapBase(base);
    this.view.moveHead(pivot, { totalDifficulty: td, lastCheckpoint: 0n });
  }
}

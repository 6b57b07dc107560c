/**
 * History below a snap sync's base block. A snap-synced node stores only headers below its base (plus the few top
 * bodies the handover fetched); the backfill (p2p/snap/sync/backfill*.ts) then fetches every body and receipt list
 * from peers, newest first, and stores them here exactly as an import would have: body, receipts, the transaction
 * lookup entries, the log index and the address index, each batch with the cursor in the same LevelDB write.
 *
 * The cursor is one number, `heldFrom`: every block from it up to the base has its body and receipts. So "is this
 * block's history here yet?" is one comparison, and a crash leaves the cursor where its last batch put it.
 */
import type { Block } from '@ethereumjs/block';
import { bigIntToUnpaddedBytes, bytesToBigInt } from '@ethereumjs/util';
import { encodeStoredReceipts, type TxReceipt } from '../codec/receipts.js';
import type { BlockStore } from '../db/block-store.js';
import { type ChainDB, WriteBatch } from '../db/chain-db.js';
import { keys } from '../db/keys.js';
import { indexWrites } from '../logs/log-index.js';
import { decodeSnapBase } from '../state/snap-base.js';
import { addressIndexWrites } from './address-index.js';

/** Where a snap-synced node's history stands: blocks in [heldFrom, base] (and every one above) are complete. */
export interface HistoryFrontier {
  /** The snap base: the block whose state was downloaded. */
  readonly base: bigint;
  /** Lowest block whose body and receipts are stored (1 once the backfill is done: genesis is always stored). */
  readonly heldFrom: bigint;
}

/** A block of the backfill with its receipts, both checked against its header by the caller. */
export interface BackfilledBlock {
  readonly block: Block;
  readonly receipts: readonly TxReceipt[];
}

/** The error message of a read of a block whose body or receipts have not been backfilled yet (-32000). */
export function historyNotHeldMessage(block: bigint, frontier: HistoryFrontier): string {
  const below = frontier.base - frontier.heldFrom + 1n;
  const percent = frontier.base <= 0n ? 100 : Number((below * 1000n) / frontier.base) / 10;
  return (
    `body and receipts of block ${block} are not held yet: history below the snap pivot ${frontier.base} is being ` +
    `backfilled (${percent}% done, blocks ${frontier.heldFrom} and above are held)`
  );
}

export class HistoryBackfillStore {
  #frontier: HistoryFrontier | undefined;

  constructor(
    private readonly db: ChainDB,
    private readonly store: BlockStore,
  ) {}

  /** Reads the snap base and the cursor (once, at open; the handover and the backfill keep them current). */
  async open(): Promise<void> {
    const base = decodeSnapBase(await this.store.getMeta('snapBase'));
    if (base === undefined) return;
    const cursor = await this.store.getMeta('snapBackfill');
    this.#frontier = { base: base.number, heldFrom: cursor === undefined ? base.number + 1n : bytesToBigInt(cursor) };
  }

  /** undefined on a node that never snap-synced (it executed, and so holds, every block). */
  frontier(): HistoryFrontier | undefined {
    return this.#frontier;
  }

  /** Whether block `number` is one whose body or receipts are still to come. */
  lacks(number: bigint): boolean {
    const f = this.#frontier;
    return f !== undefined && number > 0n && number < f.heldFrom;
  }

  /** The lowest block of [from, to] whose history is still to come; undefined when all of it is held. */
  firstLacking(from: bigint, to: bigint): bigint | undefined {
    const f = this.#frontier;
    if (f === undefined || to < from) return undefined;
    const first = from > 0n ? from : 1n;
    return first < f.heldFrom && first <= to ? first : undefined;
  }

  /** The handover made `base` the head: nothing below it has receipts yet (its few top bodies do not count). */
  noteBase(base: bigint): void {
    this.#frontier = { base, heldFrom: base + 1n };
  }

  /**
   * One atomic write: the blocks (consecutive, newest first, ending just below the current cursor) with everything
   * an import writes for a canonical block except its header and state, and the cursor moved to the last of them.
   */
  async storeBlocks(blocks: readonly BackfilledBlock[]): Promise<void> {
    const f = this.#frontier;
    if (f === undefined) throw new Error('no snap base: there is no history to backfill');
    if (blocks.length === 0) return;
    let expected = f.heldFrom - 1n;
    const batch = new WriteBatch();
    for (const { block, receipts } of blocks) {
      if (block.header.number !== expected)
        throw new Error(`backfill out of order: block ${block.header.number} where ${expected} was next`);
      this.store.stageBody(batch, block);
      batch.put(keys.receipts(block.hash()), encodeStoredReceipts(receipts));
      this.store.stageCanonical(batch, block);
      batch.ops.push(...indexWrites(block, receipts), ...addressIndexWrites(block, receipts));
      expected--;
    }
    const heldFrom = expected + 1n;
    batch.put(keys.meta('snapBackfill'), bigIntToUnpaddedBytes(heldFrom));
    await this.db.write(batch);
    this.#frontier = { base: f.base, heldFrom };
  }
}

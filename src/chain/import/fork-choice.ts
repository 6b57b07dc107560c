/**
 * Fork choice: which stored block is the head (total difficulty; with ECIP-1097 checkpointing, latest checkpoint
 * first, and never a chain that drops the head's latest checkpoint), the canonical switch that makes it the head
 * (canonical index, tx index and head pointer in the block's own batch), and the rewind of test_rewindToBlock.
 */
import type { Block } from '@ethereumjs/block';
import { equalsBytes } from '@ethereumjs/util';
import type { ChainEmitter, ReorgEvent } from '../view/chain-events.js';
import type { ChainView } from '../view/chain-view.js';
import { heavier, type ChainWeight, type Federation } from '../checkpointing/index.js';
import type { BlockStore } from '../db/block-store.js';
import { WriteBatch, type ChainDB } from '../db/chain-db.js';

/** What importing a block did: fork choice decides between these (the importer answers with them). */
export type ImportResult =
  | { readonly status: 'known'; readonly hash: Uint8Array }
  /** Stored and made the head (possibly by a reorg). */
  | {
      readonly status: 'head';
      readonly block: Block;
      readonly dropped: readonly Block[];
      readonly added: readonly Block[];
    }
  /**
   * Stored on a side chain with no more weight than the head (total difficulty; with checkpointing, latest
   * checkpoint first), or one that would drop the head's latest checkpoint.
   */
  | { readonly status: 'side'; readonly block: Block };

export class ForkChoice {
  constructor(
    private readonly view: ChainView,
    private readonly store: BlockStore,
    private readonly db: ChainDB,
    private readonly federation: Federation | undefined,
    private readonly events: ChainEmitter,
  ) {}

  /**
   * Writes `batch` (a new block of `weight`, staged): as the head if it outweighs the head and keeps its latest
   * checkpoint, else on a side chain. `remember` runs once it is written, `onHead` too when it became the head.
   */
  async place(
    batch: WriteBatch,
    block: Block,
    weight: ChainWeight,
    remember: () => void,
    onHead?: () => void,
  ): Promise<ImportResult> {
    // A child of the head keeps the head's latest checkpoint: no call (and no promise) for it.
    const childOfHead = equalsBytes(block.header.parentHash, this.view.getHead().hash());
    if (!heavier(weight, this.view.headWeight()) || (!childOfHead && !(await this.keepsLatestCheckpoint(block)))) {
      await this.db.write(batch);
      remember();
      return { status: 'side', block };
    }
    return this.switchHead(batch, block, weight, () => {
      remember();
      onHead?.();
    });
  }

  /** A stored side block (e.g. the old head after a rewind) that now outweighs the head becomes the head again; undefined if it does not. */
  async restoreStored(hash: Uint8Array, fallback: Block): Promise<ImportResult | undefined> {
    const weight = await this.view.storedWeight(hash);
    if (weight === undefined || !heavier(weight, this.view.headWeight()) || (await this.view.isCanonical(hash)))
      return undefined;
    const stored = (await this.store.getBlock(hash)) ?? fallback;
    if (!(await this.keepsLatestCheckpoint(stored))) return undefined;
    return this.switchHead(new WriteBatch(), stored, weight);
  }

  /**
   * ECIP-1097: a checkpoint "can never be rolled back". A new head must descend from the head's latest checkpoint
   * block, whatever its weight (a conflicting, later checkpoint included). Always true without checkpoints.
   */
  private async keepsLatestCheckpoint(block: Block): Promise<boolean> {
    const floor = this.view.getHeadLastCheckpoint();
    if (floor === 0n || equalsBytes(block.header.parentHash, this.view.getHead().hash())) return true;
    if (block.header.number <= floor) return false;
    let cursor = await this.store.getHeader(block.header.parentHash);
    while (cursor !== undefined && cursor.number > floor) {
      // A canonical block above the checkpoint descends from it.
      if (await this.view.isCanonical(cursor.hash())) return true;
      cursor = await this.store.getHeader(cursor.parentHash);
    }
    const checkpointHash = await this.store.getCanonicalHash(floor);
    return cursor !== undefined && checkpointHash !== undefined && equalsBytes(cursor.hash(), checkpointHash);
  }

  /** Makes a stored (or being-stored, in `batch`) block the head: canonical index, tx index and head pointer in one write. */
  private async switchHead(
    batch: WriteBatch,
    block: Block,
    weight: ChainWeight,
    afterWrite?: () => void,
  ): Promise<ImportResult> {
    const head = this.view.getHead();
    const change = equalsBytes(block.header.parentHash, head.hash())
      ? this.stageChildOfHead(batch, block, head)
      : await this.stageCanonicalSwitch(batch, block);
    this.store.stageHead(batch, block.hash());
    // A reorg is one diff, from the old head's state to the new one's.
    await this.view.flat.writeHead(batch, this.view.stateRootAfter(block.header));

    afterWrite?.();
    if (change.dropped.length > 0) this.store.forgetCanonical();
    else for (const b of change.added) this.store.noteCanonical(b.header.number, b.hash());
    this.view.moveHead(block, weight);
    if (change.dropped.length > 0) this.events.emit('reorg', change);
    this.events.emit('newHead', block);
    return { status: 'head', block, dropped: change.dropped, added: change.added };
  }

  /**
   * `stageCanonicalSwitch` for a child of the head (every block the node mines, nearly every block a peer sends):
   * what its walk finds, without reading the parent again or asking whether the head is canonical.
   */
  private stageChildOfHead(batch: WriteBatch, newHead: Block, head: Block): ReorgEvent {
    this.store.stageCanonical(batch, newHead);
    return { dropped: [], added: [newHead], commonAncestor: head };
  }

  /** Stages the canonical index and tx index change that makes `newHead` the head. */
  private async stageCanonicalSwitch(batch: WriteBatch, newHead: Block): Promise<ReorgEvent> {
    const added: Block[] = [newHead];
    let cursor = (await this.store.getBlock(newHead.header.parentHash))!;
    while (!(await this.view.isCanonical(cursor.hash()))) {
      added.unshift(cursor);
      cursor = (await this.store.getBlock(cursor.header.parentHash))!;
    }
    const dropped: Block[] = [];
    for (let n = this.view.getHead().header.number; n > cursor.header.number; n--) {
      dropped.push((await this.view.getBlock(n))!);
    }
    for (const b of dropped) this.store.stageNonCanonical(batch, b, b.header.number > newHead.header.number);
    for (const b of added) this.store.stageCanonical(batch, b);
    return { dropped, added, commonAncestor: cursor };
  }

  /** Moves the head back to canonical block `number`; later blocks stay stored as a side chain. */
  async rewind(number: bigint): Promise<Block> {
    const head = this.view.getHead();
    const target = await this.view.getBlock(number);
    if (target === undefined)
      throw new Error(`cannot rewind to block ${number}: beyond the head ${head.header.number}`);
    if (number === head.header.number) return head;
    const batch = new WriteBatch();
    const dropped: Block[] = [];
    for (let n = head.header.number; n > number; n--) {
      const b = (await this.view.getBlock(n))!;
      dropped.push(b);
      this.store.stageNonCanonical(batch, b, true);
    }
    this.store.stageHead(batch, target.hash());
    // A stored block's weight never changes: read before the write, so the head moves right after it.
    const totalDifficulty = (await this.store.getTotalDifficulty(target.hash()))!;
    const lastCheckpoint =
      this.federation === undefined ? 0n : ((await this.store.getLastCheckpoint(target.hash())) ?? 0n);
    await this.view.flat.writeHead(batch, this.view.stateRootAfter(target.header));
    this.store.forgetCanonical();
    this.view.moveHead(target, { lastCheckpoint, totalDifficulty });
    this.events.emit('reorg', { dropped, added: [], commonAncestor: target });
    this.events.emit('newHead', target);
    return target;
  }
}

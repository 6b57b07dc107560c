/**
 * One block's way into storage: validate, execute (or reuse the execution it was assembled with), stage it with
 * its receipts, indexes and state nodes in one batch, and hand that batch to fork choice.
 */
import type { Block, BlockHeader } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { bytesToHex, equalsBytes, KECCAK256_RLP } from '@ethereumjs/util';
import type { SealedBlocks } from '../exec/sealed-blocks.js';
import type { SealChecker } from '../exec/seal-checker.js';
import type { WarmState } from '../exec/warm-state.js';
import type { ChainView } from '../view/chain-view.js';
import { checkpointOf, type ChainWeight, type Federation } from '../checkpointing/index.js';
import type { BlockCodec } from '../codec/block-codec.js';
import { hashKeepingBytes } from '../codec/header-bytes.js';
import type { BlockStore } from '../db/block-store.js';
import { WriteBatch } from '../db/chain-db.js';
import type { ChainRules } from '../rules/engine-types.js';
import { BlockRunner, type RunnerResult } from '../exec/block-runner.js';
import { addressIndexWrites } from '../history/address-index.js';
import { indexWrites } from '../logs/log-index.js';
import { BufferedTrieDB, type TrieNodeStore } from '../state/trie-db.js';
import type { ForkChoice, ImportResult } from './fork-choice.js';
import { BlockImportError, invalidBlock } from './import-error.js';
import { ImportTimes } from './import-times.js';
import { KeptState } from './kept-state.js';
import type { BlockValidator } from './validate.js';

export type { ImportResult };

export interface ImportOptions {
  /**
   * The block comes from a history file (`svc-node import`), where nothing but this importer stores blocks: a child
   * of the head this importer just stored is surely not stored yet, whoever sealed it (no "is it stored?" read).
   */
  readonly fromHistory?: boolean;
}

export interface ImporterParts {
  readonly view: ChainView;
  readonly store: BlockStore;
  readonly nodes: TrieNodeStore;
  readonly codec: BlockCodec;
  readonly rules: ChainRules;
  readonly federation: Federation | undefined;
  readonly validator: BlockValidator;
  readonly forkChoice: ForkChoice;
  readonly sealed: SealedBlocks;
  readonly warm: WarmState;
  /** Run every transaction through the EVM, plain transfers included. */
  readonly evmOnly: boolean;
  /**
   * Re-executes every block imported on its assembly's word with @ethereumjs/vm's own code, off the answer path
   * (exec/seal-checker.ts). Undefined where no reference can read the state (a fork's partial tries, test mode).
   */
  readonly checks: SealChecker | undefined;
}

export class BlockImporter {
  /**
   * The head this importer stored as a new block, while no block has been stored on it since: a block on it cannot
   * be stored already, so the dev miner's next block skips the "is it stored?" read (a LevelDB get per block).
   * Any other import and every other writer of blocks or the head (`forgetChildlessHead`) clear it. Once the head
   * moves back (evm_revert), a re-mined block can be byte-identical to one stored before, so the read stays there.
   */
  private childlessHead: Uint8Array | undefined;
  /** Main-thread time per import step, for the history import's report (a few clock reads per block). */
  readonly times = new ImportTimes();
  /** The state the last block executed here finished on, for its child's execution (kept-state.ts). */
  private readonly kept = new KeptState();

  constructor(private readonly p: ImporterParts) {}

  /** A rewind or a run of empty blocks stored without this importer: the next import reads the store again. */
  forgetChildlessHead(): void {
    this.childlessHead = undefined;
    this.kept.drop();
  }

  /**
   * `run` stores blocks on the head without this importer (a bulk run of empty blocks, its last block the new head).
   * If the head was one this importer stored as new with nothing on it since, the run's blocks are new too (each a
   * child of a new block), so its last block has nothing on it either and the miner's next block skips the "is it
   * stored?" read. That read would otherwise index every record of the run still queued for the disk
   * (db/write-behind.ts): ~0.5-0.8 ms after each 99-block run, profiled.
   */
  async storeOnHead<T extends { readonly block: Block }>(
    head: Uint8Array,
    run: () => Promise<readonly T[]>,
  ): Promise<readonly T[]> {
    const childless = this.childlessHead !== undefined && equalsBytes(this.childlessHead, head);
    this.childlessHead = undefined;
    const made = await run();
    if (childless && made.length > 0) this.childlessHead = made[made.length - 1]!.block.hash();
    return made;
  }

  /** Not serialised here: the chain's import queue runs one at a time. */
  async importBlock(block: Block, opts: ImportOptions = {}): Promise<ImportResult> {
    const { view, store, federation, validator } = this.p;
    const started = performance.now();
    // The header's encoding made for the hash serves the stored record and the seal check too (header-bytes.ts).
    const hash = hashKeepingBytes(block.header);
    // Only for a block this chain assembled on that head, still the head, or one read from a history file: a peer's
    // block keeps the read (a snap sync stores headers above the head without this importer).
    const surelyNew =
      this.childlessHead !== undefined &&
      (opts.fromHistory === true || this.p.sealed.has(block)) &&
      equalsBytes(block.header.parentHash, this.childlessHead) &&
      equalsBytes(view.getHead().hash(), this.childlessHead);
    this.childlessHead = undefined;
    if (!surelyNew && (await store.getNumber(hash)) !== undefined)
      return (await this.p.forkChoice.restoreStored(hash, block)) ?? { status: 'known', hash };
    const header = block.header;
    // The head is stored: a child of it (every block mined here) takes its header without a read or a promise.
    const onHead = view.getHead();
    const parent = equalsBytes(header.parentHash, onHead.hash())
      ? onHead.header
      : await store.getHeader(header.parentHash);
    if (parent === undefined) {
      throw new BlockImportError(
        'unknown-parent',
        `block ${header.number} ${bytesToHex(hash)}: unknown parent ${bytesToHex(header.parentHash)}`,
      );
    }
    const common = view.commonAt(header.number);
    // By name too: Spiral and Bastion both run on Common's shanghai, told apart only by the rule set in the name.
    if (block.common.hardfork() !== common.hardfork() || block.common.chainName() !== common.chainName()) {
      block = this.p.codec.block(block.raw());
    }
    // ECIP-1097 checkpoint blocks have their own rules: no seal, no execution, no reward (only where configured).
    const checkpoint = federation === undefined ? undefined : checkpointOf(header);
    // A block this chain assembled was built from valid parts; only the seal is new.
    const assembled = this.p.sealed.take(block);
    if (checkpoint !== undefined) {
      validator.validateCheckpointBlock(parent, block, checkpoint);
    } else {
      // Awaited only when the rules or the seal check answer later (checkHeader returns their promise then).
      const checked = validator.checkHeader(parent, header, 'block', this.p.sealed.sealVerified(block));
      if (checked !== undefined) await checked;
      if (assembled === undefined) await validator.validateBody(block, parent, common);
    }

    const parentRoot = this.p.view.stateRootAfter(parent);
    const validated = performance.now();
    const executedHere = checkpoint === undefined && assembled === undefined;
    const result =
      checkpoint !== undefined
        ? this.unexecuted(parent)
        : (assembled ?? (await this.execute(block, parent, parentRoot, common)));
    const executed = performance.now();
    const head = view.getHead();
    const parentTd = equalsBytes(header.parentHash, head.hash())
      ? view.getHeadTotalDifficulty()
      : (await store.getTotalDifficulty(parent.hash()))!;
    const td = parentTd + header.difficulty;
    const weight: ChainWeight = {
      // Each checkpoint is newer than every one before it on its chain (its number is above its parent's).
      lastCheckpoint:
        federation === undefined
          ? 0n
          : checkpoint !== undefined
            ? header.number
            : ((await store.getLastCheckpoint(parent.hash())) ?? 0n),
      totalDifficulty: td,
    };

    const batch = new WriteBatch();
    batch.flatChanges = result.flatChanges;
    result.stateWrites.writeTo(batch);
    store.stageBlock(batch, block, result.receipts, td);
    if (federation !== undefined) store.stageLastCheckpoint(batch, hash, weight.lastCheckpoint);
    // Log postings are per block hash and immutable like receipts, so they go in the block's own batch.
    batch.ops.push(...indexWrites(block, result.receipts), ...addressIndexWrites(block, result.receipts));
    const remember = () => {
      this.p.nodes.remember(result.stateWrites.pending);
      store.remember(block, result.receipts);
    };
    const keepWarm =
      assembled === undefined
        ? undefined
        : () => this.p.warm.keep(block, assembled, view.commonAt(block.header.number));
    const placed = await this.p.forkChoice.place(batch, block, weight, remember, keepWarm);
    if (placed.status === 'head') {
      this.childlessHead = hash;
      if (executedHere && result.state !== undefined) this.kept.keep(hash, result.state, common, result.gasUsed);
    }
    this.times.note(validated - started, executed - validated, performance.now() - executed);
    if (assembled !== undefined && placed.status !== 'known')
      this.p.checks?.submit({
        block,
        parentRoot,
        ancestors: view.ancestorsOf(parent),
        rewards: this.p.rules.rewards(header, block.uncleHeaders),
        receipts: assembled.receipts,
      });
    return placed;
  }

  /** A checkpoint block's outcome: the parent's state unchanged, no receipts, no reward. */
  private unexecuted(parent: BlockHeader): RunnerResult {
    return {
      receipts: [],
      gasUsed: 0n,
      stateRoot: parent.stateRoot,
      receiptsRoot: KECCAK256_RLP,
      logsBloom: new Uint8Array(256),
      stateWrites: new BufferedTrieDB(this.p.nodes),
    };
  }

  private async execute(
    block: Block,
    parent: BlockHeader,
    parentStateRoot: Uint8Array,
    common: Common,
  ): Promise<RunnerResult> {
    const state = this.kept.take(block.header.parentHash, parentStateRoot, this.p.view.getHead().hash(), common);
    const runner = await BlockRunner.start({
      store: this.p.nodes,
      common,
      parentStateRoot,
      envBlock: block,
      ancestors: this.p.view.ancestorsOf(parent),
      plainTransfers: !this.p.evmOnly,
      ...(state !== undefined ? { state, listFlatChanges: true } : {}),
    });
    for (let i = 0; i < block.transactions.length; i++) {
      const outcome = await runner.apply(block.transactions[i]);
      if (!outcome.ok)
        throw invalidBlock(block, 'invalid-body', `transaction ${i} cannot be applied: ${outcome.reason}`);
    }
    const result = await runner.finish(this.p.rules.rewards(block.header, block.uncleHeaders));
    const h = block.header;
    const mismatch = (what: string, have: unknown, want: unknown) =>
      invalidBlock(block, 'invalid-state', `${what} mismatch: header has ${have}, execution gives ${want}`);
    if (h.gasUsed !== result.gasUsed) throw mismatch('gasUsed', h.gasUsed, result.gasUsed);
    if (!equalsBytes(h.receiptTrie, result.receiptsRoot))
      throw mismatch('receiptsRoot', bytesToHex(h.receiptTrie), bytesToHex(result.receiptsRoot));
    if (!equalsBytes(h.logsBloom, result.logsBloom)) throw mismatch('logsBloom', 'another bloom', 'a different one');
    if (!equalsBytes(h.stateRoot, result.stateRoot))
      throw mismatch('stateRoot', bytesToHex(h.stateRoot), bytesToHex(result.stateRoot));
    return result;
  }
}

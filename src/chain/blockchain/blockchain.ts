/**
 * The chain engine: stores blocks, executes them, chooses the canonical chain by total difficulty (with ECIP-1097
 * checkpointing: by latest checkpoint, then total difficulty) and announces head changes. Imports are serialised
 * (one at a time) and every imported block — header, body, receipts, indexes, state nodes and, when it wins, the
 * canonical index and head pointer — is one atomic LevelDB batch, so a crash leaves the database at a consistent head.
 *
 * This class opens and closes the database, runs the import queue and emits the events; the work is done by the
 * chain view (reads), the importer with its validator and fork choice, and the assemblers (blocks for the miner).
 */
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { Block, BlockHeader } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { type Account, type Address, equalsBytes } from '@ethereumjs/util';
import { BlockAssembler, type AssembledBlock, type AssembleOptions } from '../assembly/assembler.js';
import { BULK_CHUNK, EmptyChunkBuilder, type ExtendedBlock, type ExtendHeadOptions } from '../assembly/empty-chunk.js';
import { SealedBlocks } from '../exec/sealed-blocks.js';
import { WarmState } from '../exec/warm-state.js';
import type { ChainEvents } from '../view/chain-events.js';
import { ChainView, type BlockRef, type TransactionLookup } from '../view/chain-view.js';
import { Federation, type CheckpointSignature } from '../checkpointing/index.js';
import { BlockCodec } from '../codec/block-codec.js';
import type { TxReceipt } from '../codec/receipts.js';
import { SharedCommons } from '../exec/commons.js';
import { BlockStore, type TxLocation } from '../db/block-store.js';
import { ChainDB } from '../db/chain-db.js';
import type { EngineNetwork, RewardCredit } from '../rules/engine-types.js';
import type { CallMessage, CallResult } from '../exec/call.js';
import { buildGenesis, declaredGenesisBlock } from '../genesis/state.js';
import { writeGenesis } from './genesis-write.js';
import { ForkChoice } from '../import/fork-choice.js';
import { BlockImporter, type ImportOptions, type ImportResult } from '../import/importer.js';
import type { ImportTimesSnapshot } from '../import/import-times.js';
import { BlockValidator } from '../import/validate.js';
import type { LogIndexReader } from '../logs/log-index.js';
import type { LogIndexWrites } from '../logs/recent-postings.js';
import { GenesisMismatchError } from '../genesis/header.js';
import { cacheLimitsOf } from '../base/cache-limits.js';
import type { CacheLimits } from '../base/cache-limits.js';
import { decodeForkBase, openForkBase, preForkHashes } from '../fork/fork-base.js';
import { ForkStateSource } from '../fork/fork-state.js';
import type { ForkUpstream } from '../fork/upstream.js';
import type { EditedRootsRecord } from '../state/edited-roots.js';
import {
  editHeadState,
  type HeadStateEditParts,
  type StateEditWork,
  writeEditedState,
} from '../view/head-state-edit.js';
import type { StateView } from '../state/state-reader.js';
import { SnapStateStore } from '../view/snap-store.js';
import { HistoryBackfillStore } from '../history/backfill-store.js';
import { StateRetention } from '../state/retention.js';
import { TrieNodeStore } from '../state/trie-db.js';
import { FlatTable } from '../state/flat-table.js';
import { flatLayerLimits, openFlatState } from './flat-open.js';
import { WrittenKeys } from '../state/written-keys.js';
import type { TraceChain } from '../trace/replay.js';
import type { OpenOptions } from './open-options.js';
import { StatePruner } from './pruner.js';
import { checkCheckpointingMeta } from './checkpointing-meta.js';
import { openSealChecks } from './seal-checks.js';
import type { SealChecker } from '../exec/seal-checker.js';

export type { OpenOptions };

// The miner's files import these from here (another change splits them; their import lines stay as they are).
export type { AssembledBlock, ImportResult };

export class Blockchain extends EventEmitter<ChainEvents> {
  private importQueue: Promise<unknown> = Promise.resolve();
  private readonly view: ChainView;
  private readonly warm = new WarmState();
  private readonly validator: BlockValidator;
  private readonly importer: BlockImporter;
  private readonly forkChoice: ForkChoice;
  private readonly assembler: BlockAssembler;
  private readonly emptyChunks: EmptyChunkBuilder;
  /** Full mode's mark-and-sweep of unreachable state (blockchain/pruner.ts); undefined for an archive. */
  pruning: StatePruner | undefined;
  /** Where a snap sync writes state, headers and its progress, and how it hands over (state/snap-store.ts). */
  readonly snapState: SnapStateStore;
  /** After a snap sync: bodies and receipts below its base, fetched afterwards (history/backfill-store.ts). */
  readonly history: HistoryBackfillStore;
  /** Re-executes the blocks imported on their assembly's word (exec/seal-checker.ts); the miner waits for its room. */
  readonly sealChecks: SealChecker | undefined;

  private constructor(
    private readonly db: ChainDB,
    private readonly nodes: TrieNodeStore,
    private readonly store: BlockStore,
    private readonly commons: SharedCommons,
    private readonly codec: BlockCodec,
    private readonly opts: OpenOptions,
    /** ECIP-1097 settings; undefined = no checkpointing (and none of its code runs). */
    readonly federation: Federation | undefined,
    limits: CacheLimits,
  ) {
    super();
    const { rules, callPool } = opts;
    const retention = new StateRetention(opts.retention);
    const flat = new FlatTable(db, nodes, { ...(opts.log ? { log: opts.log } : {}), layers: flatLayerLimits(opts) });
    this.view = new ChainView(store, nodes, codec, commons, federation, limits, this.warm, flat, retention, callPool);
    this.validator = new BlockValidator(store, rules, opts.noProof === true ? undefined : opts.seal, federation);
    this.forkChoice = new ForkChoice(this.view, store, db, federation, this);
    const parts = { view: this.view, store, nodes, rules, federation, warm: this.warm };
    const built = { ...parts, sealed: new SealedBlocks(), evmOnly: opts.evmOnly === true };
    const rewindTo = (n: bigint) => this.rewindTo(n);
    this.sealChecks = openSealChecks({ opts, nodes, view: this.view, events: this, rewindTo });
    const importParts = { codec, validator: this.validator, forkChoice: this.forkChoice, checks: this.sealChecks };
    this.importer = new BlockImporter({ ...built, ...importParts });
    this.assembler = new BlockAssembler({ ...built, flatState: opts.flatState === true, console: opts.console });
    this.emptyChunks = new EmptyChunkBuilder({ ...parts, db, validator: this.validator, events: this });
    this.history = new HistoryBackfillStore(db, store);
    this.snapState = new SnapStateStore(db, nodes, store, this.view, (base) => this.history.noteBase(base));
  }

  /** Opens (or initialises from genesis) the chain database of `dataDir`; refuses another network's database. */
  static async open(opts: OpenOptions): Promise<Blockchain> {
    if (opts.noProof !== true && opts.seal === undefined)
      throw new Error('a seal verifier is required unless noProof is set');
    const limits = cacheLimitsOf(opts.caches);
    const db = await ChainDB.open(join(opts.dataDir, 'chaindata'), {
      cacheSize: limits.dbCacheBytes,
      writeBufferSize: limits.dbWriteBufferBytes,
      writeBehind: opts.writeBehind === true,
    });
    try {
      const nodes = new TrieNodeStore(db, limits.trieNodes, limits.trieLookups, limits.trieDecodedNodes);
      const federation =
        opts.network.checkpointing === undefined ? undefined : new Federation(opts.network.checkpointing);
      const commons = new SharedCommons(opts.rules);
      const commonAt = (n: bigint) => commons.commonAt(n);
      const codec = new BlockCodec(commonAt, (n) => commons.txCommonAt(n), federation !== undefined);
      const store = new BlockStore(db, codec, commonAt, limits);
      const chain = new Blockchain(db, nodes, store, commons, codec, opts, federation, limits);
      await chain.initialise();
      const betweenImports = <T>(work: () => Promise<T>) => chain.queued(work);
      chain.pruning = await StatePruner.open({ db, store, view: chain.view, betweenImports }, opts);
      return chain;
    } catch (err) {
      await db.close();
      throw err;
    }
  }

  private async initialise(): Promise<void> {
    const { network } = this.opts;
    const common = this.commonAt(0n);
    if (this.opts.fork !== undefined) return this.initialiseFork(this.opts.fork);
    const forkBase = decodeForkBase(await this.store.getMeta('forkBase'));
    if (forkBase !== undefined)
      throw new Error(
        `the datadir ${this.opts.dataDir} holds a fork of another node's chain from block ${forkBase.number}: ` +
          'start the node with --fork-url to resume it, or give it another --datadir',
      );
    const storedGenesis = await this.store.getMeta('genesis');
    let genesis: Block;
    if (storedGenesis === undefined) {
      genesis = await writeGenesis({
        network,
        common,
        db: this.db,
        nodes: this.nodes,
        store: this.store,
        flat: this.view.flat,
        federation: this.federation,
      });
    } else {
      const expected = declaredGenesisBlock(network, common) ?? (await buildGenesis(network, common, this.nodes)).block;
      if (!equalsBytes(expected.hash(), storedGenesis))
        throw GenesisMismatchError.ofDatabase(this.opts.dataDir, network.name, storedGenesis, expected);
      await checkCheckpointingMeta(this.store, this.federation, this.opts.dataDir);
      genesis = (await this.store.getBlock(storedGenesis))!;
      await this.history.open();
    }
    await this.view.openAt(genesis, await this.store.getMeta('head'));
    await openFlatState(this.view, this.nodes);
  }

  /** A forked chain opens on its base block (fork/fork-base.ts) and reads missing state from the upstream. */
  private async initialiseFork(upstream: ForkUpstream): Promise<void> {
    const parts = { upstream, store: this.store, db: this.db, codec: this.codec, dataDir: this.opts.dataDir };
    const base = await openForkBase(parts);
    this.nodes.attachFork(
      new ForkStateSource(upstream, this.db, { number: base.header.number, stateRoot: base.header.stateRoot }),
    );
    this.view.forkAncestry = { base: base.header.number, hashAt: preForkHashes(parts) };
    await this.view.openAt(base, await this.store.getMeta('head'));
  }

  async close(): Promise<void> {
    await this.sealChecks?.close();
    await this.pruning?.close();
    await this.importQueue.catch(() => undefined);
    await this.view.flat.close();
    await this.db.close();
  }

  /** Read access to the log index postings written with every block, and to those writes as they are made. */
  get logIndex(): LogIndexReader & LogIndexWrites {
    return this.db;
  }

  get network(): EngineNetwork {
    return this.opts.network;
  }

  /**
   * The Common for blocks at `number`, shared by every object of those blocks. Rules may build a new
   * Common per call; one shared instance per distinct rule set keeps object construction cheap.
   */
  commonAt(number: bigint): Common {
    return this.commons.commonAt(number);
  }

  /** The Common to build transactions for block `number` with (the tx pool and RPC decode with it). */
  txCommonAt(number: bigint): Common {
    return this.commons.txCommonAt(number);
  }

  // ---------------------------------------------------------------- reads (ChainView documents them)

  getHead(): Block {
    return this.view.getHead();
  }

  getHeadTotalDifficulty(): bigint {
    return this.view.getHeadTotalDifficulty();
  }

  /** Number of the latest checkpoint block on the canonical chain: 0 before the first one or without checkpointing. */
  getHeadLastCheckpoint(): bigint {
    return this.view.getHeadLastCheckpoint();
  }

  getLastCheckpointNumber(hash: Uint8Array): Promise<bigint | undefined> {
    return this.view.getLastCheckpointNumber(hash);
  }

  getGenesis(): Block {
    return this.view.getGenesis();
  }

  getBlock(ref: BlockRef): Promise<Block | undefined> {
    return this.view.getBlock(ref);
  }

  getHeader(hash: Uint8Array): Promise<BlockHeader | undefined> {
    return this.view.getHeader(hash);
  }

  getCanonicalHash(number: bigint): Promise<Uint8Array | undefined> {
    return this.view.getCanonicalHash(number);
  }

  /** `getCanonicalHash` answered from the cache alone; undefined when a read would be needed. */
  canonicalHashNow = (number: bigint): Uint8Array | undefined => this.view.canonicalHashNow(number);

  isCanonical(hash: Uint8Array): Promise<boolean> {
    return this.view.isCanonical(hash);
  }

  getTotalDifficulty(hash: Uint8Array): Promise<bigint | undefined> {
    return this.view.getTotalDifficulty(hash);
  }

  getReceipts(blockHash: Uint8Array): Promise<TxReceipt[] | undefined> {
    return this.view.getReceipts(blockHash);
  }

  getTransactionLocation(txHash: Uint8Array): Promise<TxLocation | undefined> {
    return this.view.getTransactionLocation(txHash);
  }

  getTransaction(txHash: Uint8Array): Promise<TransactionLookup | undefined> {
    return this.view.getTransaction(txHash);
  }

  headAccountNow = (address: Address): Account | null | undefined => this.view.headAccountNow(address);

  stateAt(ref: BlockRef): Promise<StateView | undefined> {
    return this.view.stateAt(ref);
  }

  call(ref: BlockRef, msg: CallMessage): Promise<CallResult | undefined> {
    return this.view.call(ref, msg);
  }

  /** The rewards the chain's rules credit for `block` (its miner first, then each uncle's), for reward traces. */
  rewardsOf(block: Block): RewardCredit[] {
    return this.opts.rules.rewards(block.header, block.uncleHeaders);
  }

  /**
   * What re-executing transactions on the post-state of `header` needs (tracing replays a block on its parent's
   * state): the trie node store, the BLOCKHASH source of a child of `header` and the root of the state after it.
   */
  replayBase(header: BlockHeader): ReturnType<TraceChain['replayBase']> {
    return { store: this.nodes, ancestors: this.view.ancestorsOf(header), stateRoot: this.view.stateRootAfter(header) };
  }

  /** Where a replay on the state after `header` starts (a kept state; see ChainView.replayStart). */
  replayStart(header: BlockHeader): Promise<BlockHeader> {
    return this.view.replayStart(header);
  }

  executes(header: BlockHeader): boolean {
    return this.view.executes(header);
  }

  checkpointBlock(parentHash: Uint8Array, signatures: readonly CheckpointSignature[]): Promise<Block | undefined> {
    return this.view.checkpointBlock(parentHash, signatures);
  }

  decodeHeaderValues(values: readonly Uint8Array[]): BlockHeader {
    return this.view.decodeHeaderValues(values);
  }

  decodeBlockValues(
    header: readonly Uint8Array[],
    txs: readonly (Uint8Array | readonly Uint8Array[])[],
    uncles: readonly (readonly Uint8Array[])[],
  ): Block {
    return this.view.decodeBlockValues(header, txs, uncles);
  }

  decodeBlock(rlp: Uint8Array): Block {
    return this.view.decodeBlock(rlp);
  }

  // ---------------------------------------------------------------- writes, one at a time

  /** Validates, executes and stores a block, then applies fork choice. One import runs at a time. */
  importBlock(block: Block, opts?: ImportOptions): Promise<ImportResult> {
    return this.queued(() => this.importTimed(block, opts));
  }

  /**
   * Checks the seals of `blocks` (headers and uncles) in one parallel batch ahead of importing them; their imports
   * then reuse the verdicts. Not queued: it reads and writes nothing of the chain, so the next batch's seals can be
   * checked while this one executes.
   */
  preverifySeals(blocks: readonly Block[]): Promise<void> {
    return this.validator.preverifySeals(blocks);
  }

  /** Drops what `preverifySeals` left for blocks that will not be imported (a stopped import's read-ahead). */
  forgetSeals = (blocks: readonly Block[]): void => this.validator.forgetSeals(blocks);
  /** Main-thread time per import step (validate, execute, store) since the chain opened. */
  importTimes = (): ImportTimesSnapshot => this.importer.times.snapshot();

  /** Seal verdicts of headers stored without import (a snap sync's header chain). */
  checkSeals(headers: readonly BlockHeader[]): Promise<(true | string)[]> {
    return this.validator.checkSeals(headers);
  }

  /** Moves the head back to canonical block `number` (test_rewindToBlock); later blocks stay stored as a side chain. */
  rewindTo(number: bigint): Promise<Block> {
    return this.queued(() => {
      this.importer.forgetChildlessHead();
      return this.forkChoice.rewind(number);
    });
  }

  /**
   * Builds the contents of a child of `parentHash` (default: head) from candidate transactions, executing
   * them once; the miner seals `template` and imports `seal(nonce, mixHash)`. Not queued: it writes nothing.
   */
  assemble(opts: AssembleOptions): Promise<AssembledBlock> {
    return this.assembler.assemble(opts);
  }

  /**
   * Builds, seals and stores `count` empty children of the head, one on another (assembly/empty-chunk.ts), in
   * chunks of up to `BULK_CHUNK` blocks. Chunks queue with imports, so a peer's block may land between two chunks;
   * the next chunk then builds on the new head.
   */
  async extendHead(opts: ExtendHeadOptions): Promise<ExtendedBlock[]> {
    const out: ExtendedBlock[] = [];
    let done = 0;
    while (done + out.length < opts.count) {
      const size = Math.min(Math.max(1, opts.chunkSize ?? BULK_CHUNK), opts.count - done - out.length);
      const started = performance.now();
      const chunk = await this.queued(() =>
        this.importer.storeOnHead(this.view.getHead().hash(), () => this.emptyChunks.extend(size, opts)),
      );
      opts.onChunk?.(chunk, performance.now() - started);
      if (opts.collect === false) done += chunk.length;
      else out.push(...chunk);
    }
    return out;
  }

  /**
   * A dev state edit in place (state/edited-roots.ts): `work` writes to the state after the head, which from then
   * on is the head's post-state and the next block's starting state; no block is made. Queued with imports; the
   * caller keeps block production out while it runs (the miner's lock).
   */
  editHeadState(work: StateEditWork): Promise<void> {
    return this.queued(() => editHeadState(this.editParts, work));
  }

  /** On a forked chain, the height of its base block (the upstream's, fork/fork-base.ts); undefined elsewhere. */
  get forkBase(): bigint | undefined {
    return this.view.forkAncestry?.base;
  }

  /** The plain keys of the state written since `recordWrittenKeys` (state/written-keys.ts); undefined before. */
  get writtenKeys(): WrittenKeys | undefined {
    return this.nodes.writtenKeys;
  }

  /** From now on, note every address and slot written (the dev chain, for anvil_dumpState). */
  async recordWrittenKeys(): Promise<void> {
    this.nodes.writtenKeys ??= await WrittenKeys.open(this.db);
  }

  /** The edited post-states in force (a dev snapshot keeps them); `restoreEditedState` puts such a record back. */
  get editedState(): EditedRootsRecord {
    return this.view.edited.record;
  }

  restoreEditedState(record: EditedRootsRecord): Promise<void> {
    return this.queued(() => writeEditedState(this.editParts, record));
  }

  private get editParts(): HeadStateEditParts {
    return { view: this.view, nodes: this.nodes, db: this.db, warm: this.warm };
  }

  private queued<T>(work: () => Promise<T>): Promise<T> {
    const run = this.importQueue.then(work);
    this.importQueue = run.catch(() => undefined);
    return run;
  }

  private async importTimed(block: Block, opts?: ImportOptions): Promise<ImportResult> {
    const started = performance.now();
    const result = await this.importer.importBlock(block, opts);
    this.pruning?.noteImported(result);
    if (result.status !== 'known' && this.listenerCount('blockImported') > 0) {
      const event = { block: result.block, status: result.status, durationMs: performance.now() - started };
      // Its listeners (metrics, the activity log) count and log; a send's answer need not wait for them: once the
      // promise jobs under way have run (the answer is written from one), before the event loop reads on.
      process.nextTick(() => this.emit('blockImported', event));
    }
    return result;
  }
}

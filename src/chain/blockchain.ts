/**
 * The chain engine: stores blocks, executes them, chooses the canonical chain by total difficulty (with ECIP-1097
 * checkpointing: by latest checkpoint, then total difficulty) and announces head changes. Imports are serialised
 * (one at a time) and every imported block — header, body, receipts, indexes, state nodes and, when it wins, the
 * canonical index and head pointer — is one atomic LevelDB batch, so a crash leaves the database at a consistent head.
 */
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import {
  Block,
  createBlockHeader,
  type BlockBytes,
  type BlockHeader,
  type BlockHeaderBytes,
  type HeaderData,
} from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import { RLP } from '@ethereumjs/rlp';
import type { TypedTransaction } from '@ethereumjs/tx';
import { Address, bytesToBigInt, bytesToHex, equalsBytes, KECCAK256_RLP, KECCAK256_RLP_ARRAY } from '@ethereumjs/util';
import { BlockCodec } from './codec/block-codec.js';
import {
  buildCheckpointBlock,
  checkpointFieldFault,
  checkpointHeaderFault,
  checkpointOf,
  Ecip1097Header,
  Federation,
  heavier,
  type Checkpoint,
  type CheckpointFault,
  type CheckpointSignature,
  type ChainWeight,
} from './checkpointing/index.js';
import { BlockStore, type TxLocation } from './db/block-store.js';
import { ChainDB, WriteBatch } from './db/chain-db.js';
import type { ChainRules, EngineNetwork, RewardCredit, SealVerifier } from './engine-types.js';
import { BlockRunner, type RunnerResult } from './exec/block-runner.js';
import { RewardLedger } from './exec/bulk-rewards.js';
import { creditRewards } from './exec/credit-rewards.js';
import { CallExecutor, type CallMessage, type CallResult } from './exec/call.js';
import { transactionsRoot, type TxReceipt } from './codec/receipts.js';
import { sharedCommon } from './exec/shared-common.js';
import { buildGenesis, declaredGenesisBlock } from './genesis.js';
import { GenesisMismatchError } from './networks/genesis.js';
import { addressIndexWrites } from './history/address-index.js';
import { indexWrites, type LogIndexReader } from './logs/log-index.js';
import { Lru } from './db/lru.js';
import { cacheLimitsOf, type CacheLimits } from './cache-limits.js';
import { openReadState, StateView, type OpenedState } from './state/state-view.js';
import { BufferedTrieDB, TrieNodeStore } from './state/trie-db.js';

export interface OpenOptions {
  /** The node's data directory; the chain database lives in `<dataDir>/chaindata`. */
  readonly dataDir: string;
  readonly network: EngineNetwork;
  readonly rules: ChainRules;
  /** Required unless `noProof`. */
  readonly seal?: SealVerifier;
  /** Networks/test configurations without proof of work: seals are not checked. */
  readonly noProof?: boolean;
  /** Run every transaction through the EVM, plain transfers included (default false: see exec/plain-transfers.ts). Tests compare the two. */
  readonly evmOnly?: boolean;
  /** Bounds of the in-memory caches and of LevelDB's cache and write buffer; unset ones take DEFAULT_CACHE_LIMITS. */
  readonly caches?: Partial<CacheLimits>;
}

/** A block by canonical height, by hash, or a tag. ('pending' belongs to the miner, not the engine.) */
export type BlockRef = bigint | Uint8Array | 'latest' | 'earliest';

export type ImportResult =
  | { readonly status: 'known'; readonly hash: Uint8Array }
  /** Stored and made the head (possibly by a reorg). */
  | { readonly status: 'head'; readonly block: Block; readonly dropped: readonly Block[]; readonly added: readonly Block[] }
  /**
   * Stored on a side chain with no more weight than the head (total difficulty; with checkpointing, latest
   * checkpoint first), or one that would drop the head's latest checkpoint.
   */
  | { readonly status: 'side'; readonly block: Block };

export type ImportFailure = 'unknown-parent' | 'invalid-header' | 'invalid-seal' | 'invalid-body' | 'invalid-state' | 'invalid-checkpoint';

export class BlockImportError extends Error {
  constructor(
    readonly failure: ImportFailure,
    message: string,
    /** For 'invalid-checkpoint' (and ECIP-1097 field errors): which checkpointing rule failed. */
    readonly checkpointFault?: CheckpointFault,
  ) {
    super(message);
    this.name = 'BlockImportError';
  }
}

export interface ReorgEvent {
  /** Blocks that left the canonical chain, highest first. */
  readonly dropped: readonly Block[];
  /** Blocks that joined it, lowest first (the new head last). */
  readonly added: readonly Block[];
  readonly commonAncestor: Block;
}

export interface ChainEvents {
  /** The head changed (extension, reorg or rewind); `block` is the new head. */
  newHead: [block: Block];
  /** Canonical blocks were replaced or removed; fires before the matching `newHead`. */
  reorg: [event: ReorgEvent];
  /**
   * `importBlock` stored a new block (as the head or on a side chain), after its `newHead`/`reorg`. `durationMs`
   * covers the checks, execution and the write; operators' metrics and progress lines read it.
   */
  blockImported: [event: BlockImportedEvent];
}

export interface BlockImportedEvent {
  readonly block: Block;
  readonly status: 'head' | 'side';
  readonly durationMs: number;
}

export interface TransactionLookup {
  readonly tx: TypedTransaction;
  readonly block: Block;
  readonly index: number;
  readonly receipt: TxReceipt;
}

export interface AssembleOptions {
  /** Defaults to the head. */
  readonly parentHash?: Uint8Array;
  /** Candidates in the order to try them; ones that do not apply are skipped and reported. */
  readonly transactions: Iterable<TypedTransaction>;
  readonly coinbase: Uint8Array;
  /** Defaults to max(now, parent + 1). */
  readonly timestamp?: bigint;
  readonly extraData?: Uint8Array;
  /** Defaults to the parent's gas limit. */
  readonly gasLimit?: bigint;
  /** Defaults to the rules' difficulty for the parent and timestamp. */
  readonly difficulty?: bigint;
  readonly uncles?: readonly BlockHeader[];
}

export interface AssembledBlock {
  /** The unsealed block (zero nonce and mix hash): what the seal is computed over. */
  readonly template: Block;
  readonly transactions: readonly TypedTransaction[];
  readonly receipts: readonly TxReceipt[];
  readonly rejected: readonly { readonly tx: TypedTransaction; readonly reason: string }[];
  /**
   * The same block with a seal; importing it reuses this execution instead of running it again.
   * `sealVerified`: the caller found this seal with the pow module or has just checked it (the miner
   * does both), so import does not hash it again. Default false: the seal is verified on import.
   */
  seal(nonce: Uint8Array, mixHash: Uint8Array, sealVerified?: boolean): Block;
}

export interface ExtendHeadOptions {
  readonly count: number;
  readonly coinbase: Uint8Array;
  readonly extraData?: Uint8Array;
  /** Asked once per block; undefined = max(now, parent + 1). */
  readonly timestamp?: () => bigint | undefined;
  /** Seals an assembled block and returns `assembled.seal(…)`'s block. */
  readonly seal: (assembled: AssembledBlock) => Promise<Block>;
  /** Called with each chunk's blocks once the chunk is stored (and its events fired), with the chunk's time in ms. */
  readonly onChunk?: (chunk: readonly ExtendedBlock[], chunkMs: number) => void;
  /** Return every block made (default true); false: resolve to an empty list, so no chunk is held past its own. */
  readonly collect?: boolean;
}

export interface ExtendedBlock {
  readonly assembled: AssembledBlock;
  readonly block: Block;
}

/** The state (and VM) the miner's last block finished on, for its next block (see `Blockchain.warm`). */
interface WarmState {
  /** The block whose post-state this is. */
  readonly hash: Uint8Array;
  readonly state: OpenedState;
  readonly common: Common;
}

const MAX_UNCLES = 2;
const UNCLE_GENERATIONS = 7;
/**
 * Gas a warm state (see `Blockchain.warm`) may have run before it is dropped for a fresh one: its caches keep every
 * account, slot and code touched, each first touch costs hundreds of gas or more, so this bounds them to about
 * what one full block's execution may hold on the cold path. (A dev block of one token transfer is ~50k gas.)
 */
const WARM_STATE_GAS = 30_000_000n;
/** Blocks per LevelDB batch in `extendHead`: large enough that the write's fixed cost vanishes, small enough that an import queued behind a chunk (or a request, while a chunk runs without I/O) waits well under a second. */
const BULK_CHUNK = 500;
const NONE: readonly never[] = Object.freeze([]);

/**
 * Gives a frozen header the hash of its encoding, computed by the caller from the same bytes it stores, so the
 * header is not encoded a second time to hash it. (`hash()` keeps the first hash of a frozen header in `cache`;
 * if that ever changes, the header hashes itself again, as before.)
 */
function keepHeaderHash(header: BlockHeader, hash: Uint8Array): void {
  const cache = (header as unknown as { cache?: { hash?: Uint8Array } }).cache;
  if (Object.isFrozen(header) && cache !== undefined && cache.hash === undefined) cache.hash = hash;
}

export class Blockchain extends EventEmitter<ChainEvents> {
  private head!: Block;
  private headTd!: bigint;
  /** Number of the latest checkpoint block on the canonical chain (always 0 without checkpointing). */
  private headCheckpoint = 0n;
  private genesis!: Block;
  private importQueue: Promise<unknown> = Promise.resolve();
  private readonly commons = new Map<string, Common>();
  /** Executions done by `assemble`, reused when the sealed block is imported. */
  private readonly preExecuted = new WeakMap<Block, RunnerResult>();
  /**
   * The state (and VM) the latest assembled block that became the head finished on, keyed by that block's hash:
   * the next `assemble` on it continues there instead of opening the trie and building a VM. A block's state
   * never changes, so the hash is the whole key; `assemble` takes it (or drops it) either way, a chunk of empty
   * blocks on it carries it along (`carryWarm`), any other head change (import of another block, reorg, rewind)
   * drops it, and it is lent once per execution.
   */
  private warm: WarmState | undefined;
  private readonly lentResults = new WeakSet<RunnerResult>();
  /** Gas run on each warm state since it was opened (see `WARM_STATE_GAS`). */
  private readonly warmGas = new WeakMap<OpenedState, bigint>();
  /** Assembled blocks whose seal the sealer already verified (an Ethash light hash is ~10 ms). */
  private readonly sealChecked = new WeakSet<Block>();
  /**
   * Per block hash (hex): shared read views and call executors of recent blocks. Both depend only on the block (its
   * state is immutable), so they never go stale; the bound (`CacheLimits.stateViews`, `callExecutors`) is for
   * memory. Reads cluster on the head and a few blocks below it.
   */
  private readonly stateViews: Lru<string, StateView>;
  private readonly callExecutors: Lru<string, CallExecutor>;

  private constructor(
    private readonly db: ChainDB,
    private readonly nodes: TrieNodeStore,
    private readonly store: BlockStore,
    private readonly codec: BlockCodec,
    private readonly opts: OpenOptions,
    /** ECIP-1097 settings; undefined = no checkpointing (and none of its code runs). */
    readonly federation: Federation | undefined,
    limits: CacheLimits,
  ) {
    super();
    this.stateViews = new Lru(limits.stateViews);
    this.callExecutors = new Lru(limits.callExecutors);
  }

  /** Opens (or initialises from genesis) the chain database of `dataDir`; refuses another network's database. */
  static async open(opts: OpenOptions): Promise<Blockchain> {
    if (opts.noProof !== true && opts.seal === undefined) throw new Error('a seal verifier is required unless noProof is set');
    const limits = cacheLimitsOf(opts.caches);
    const db = await ChainDB.open(join(opts.dataDir, 'chaindata'), { cacheSize: limits.dbCacheBytes, writeBufferSize: limits.dbWriteBufferBytes });
    try {
      const nodes = new TrieNodeStore(db, limits.trieNodes, limits.trieLookups, limits.trieDecodedNodes);
      const federation = opts.network.checkpointing === undefined ? undefined : new Federation(opts.network.checkpointing);
      let chain!: Blockchain;
      const codec = new BlockCodec(
        (n) => chain.commonAt(n),
        (n) => chain.txCommonAt(n),
        federation !== undefined,
      );
      const store = new BlockStore(db, codec, (n) => chain.commonAt(n), limits);
      chain = new Blockchain(db, nodes, store, codec, opts, federation, limits);
      await chain.initialise();
      return chain;
    } catch (err) {
      await db.close();
      throw err;
    }
  }

  private async initialise(): Promise<void> {
    const { network } = this.opts;
    const storedGenesis = await this.store.getMeta('genesis');
    if (storedGenesis === undefined) {
      const { block, stateWrites } = await buildGenesis(network, this.commonAt(0n), this.nodes);
      const batch = new WriteBatch();
      stateWrites?.writeTo(batch);
      this.store.stageBlock(batch, block, [], block.header.difficulty);
      this.store.stageCanonical(batch, block);
      this.store.stageHead(batch, block.hash());
      this.store.stageGenesisMeta(batch, block.hash());
      if (this.federation !== undefined) this.store.stageCheckpointingMeta(batch, this.federation.activationBlock);
      await this.db.write(batch);
      this.genesis = block;
    } else {
      const expected = declaredGenesisBlock(network, this.commonAt(0n)) ?? (await buildGenesis(network, this.commonAt(0n), this.nodes)).block;
      if (!equalsBytes(expected.hash(), storedGenesis)) throw GenesisMismatchError.ofDatabase(this.opts.dataDir, network.name, storedGenesis, expected);
      await this.checkCheckpointingMeta();
      this.genesis = (await this.store.getBlock(storedGenesis))!;
    }
    const headHash = await this.store.getMeta('head');
    const head = headHash && (await this.store.getBlock(headHash));
    const td = headHash && (await this.store.getTotalDifficulty(headHash));
    if (!head || td === undefined) throw new Error('the chain database has no readable head block');
    this.head = head;
    this.headTd = td as bigint;
    if (this.federation !== undefined) this.headCheckpoint = (await this.store.getLastCheckpoint(head.hash())) ?? 0n;
  }

  /**
   * A database keeps the header form it was created with: ECIP-1097 headers (16 fields from the activation block)
   * or standard ones. Opening it the other way would mix both on one chain, which peers of either kind refuse.
   */
  private async checkCheckpointingMeta(): Promise<void> {
    const stored = await this.store.getMeta('checkpointing');
    const storedActivation = stored === undefined ? undefined : bytesToBigInt(stored);
    const activation = this.federation?.activationBlock;
    if (storedActivation === activation) return;
    const describe = (a: bigint | undefined) => (a === undefined ? 'without ECIP-1097 checkpointing' : `with ECIP-1097 checkpointing from block ${a}`);
    throw new Error(
      `the database in ${this.opts.dataDir} was created ${describe(storedActivation)}, but the node runs ${describe(activation)}: ` +
        'use another data directory (or the same checkpointing setting as before)',
    );
  }

  async close(): Promise<void> {
    await this.importQueue.catch(() => undefined);
    await this.db.close();
  }

  /** Read access to the log index postings written with every block. */
  get logIndex(): LogIndexReader {
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
    return this.shared(this.opts.rules.commonAt(number));
  }

  /** The Common to build transactions for block `number` with (the tx pool and RPC decode with it). */
  txCommonAt(number: bigint): Common {
    const rules = this.opts.rules;
    return rules.txCommonAt === undefined ? this.commonAt(number) : this.shared(rules.txCommonAt(number));
  }

  private shared(fresh: Common): Common {
    const key = `${fresh.chainId()}|${fresh.hardfork()}|${fresh.eips().join(',')}`;
    let shared = this.commons.get(key);
    if (shared === undefined) {
      shared = sharedCommon(fresh);
      this.commons.set(key, shared);
    }
    return shared;
  }

  // ---------------------------------------------------------------- reads

  getHead(): Block {
    return this.head;
  }

  getHeadTotalDifficulty(): bigint {
    return this.headTd;
  }

  /** Number of the latest checkpoint block on the canonical chain: 0 before the first one or without checkpointing. */
  getHeadLastCheckpoint(): bigint {
    return this.headCheckpoint;
  }

  /** Number of the latest checkpoint block in the chain ending at a stored block; undefined without checkpointing. */
  async getLastCheckpointNumber(hash: Uint8Array): Promise<bigint | undefined> {
    if (this.federation === undefined) return undefined;
    return (await this.store.getLastCheckpoint(hash)) ?? 0n;
  }

  getGenesis(): Block {
    return this.genesis;
  }

  /** Canonical block at a height, or by hash (any stored block, canonical or not). */
  async getBlock(ref: BlockRef): Promise<Block | undefined> {
    if (ref === 'latest') return this.head;
    if (ref === 'earliest') return this.genesis;
    if (ref instanceof Uint8Array) return this.store.getBlock(ref);
    if (ref === this.head.header.number) return this.head;
    if (ref > this.head.header.number || ref < 0n) return undefined;
    const hash = await this.store.getCanonicalHash(ref);
    return hash === undefined ? undefined : this.store.getBlock(hash);
  }

  async getHeader(hash: Uint8Array): Promise<BlockHeader | undefined> {
    return this.store.getHeader(hash);
  }

  async getCanonicalHash(number: bigint): Promise<Uint8Array | undefined> {
    if (number > this.head.header.number) return undefined;
    return this.store.getCanonicalHash(number);
  }

  /** Is this stored block on the canonical chain? */
  async isCanonical(hash: Uint8Array): Promise<boolean> {
    const number = await this.store.getNumber(hash);
    if (number === undefined || number > this.head.header.number) return false;
    const canonical = await this.store.getCanonicalHash(number);
    return canonical !== undefined && equalsBytes(canonical, hash);
  }

  async getTotalDifficulty(hash: Uint8Array): Promise<bigint | undefined> {
    return this.store.getTotalDifficulty(hash);
  }

  /** Receipts of a stored block, in transaction order. */
  async getReceipts(blockHash: Uint8Array): Promise<TxReceipt[] | undefined> {
    return this.store.getReceipts(blockHash);
  }

  /** Where a transaction sits on the canonical chain. */
  async getTransactionLocation(txHash: Uint8Array): Promise<TxLocation | undefined> {
    return this.store.getTxLocation(txHash);
  }

  /** A canonical transaction with its block and receipt. */
  async getTransaction(txHash: Uint8Array): Promise<TransactionLookup | undefined> {
    const at = await this.store.getTxLocation(txHash);
    if (at === undefined) return undefined;
    const [block, receipts] = await Promise.all([this.store.getBlock(at.blockHash), this.store.getReceipts(at.blockHash)]);
    if (block === undefined || receipts === undefined) return undefined;
    return { tx: block.transactions[at.index], block, index: at.index, receipt: receipts[at.index] };
  }

  /** Account and storage reads at the state after `ref`; undefined if the block is unknown. */
  async stateAt(ref: BlockRef): Promise<StateView | undefined> {
    const block = await this.getBlock(ref);
    if (block === undefined) return undefined;
    const key = bytesToHex(block.hash());
    let view = this.stateViews.get(key);
    if (view === undefined) {
      const stateManager = openReadState(this.nodes, this.commonAt(block.header.number), block.header.stateRoot);
      view = new StateView(stateManager, block.header.stateRoot);
      this.stateViews.set(key, view);
    }
    return view;
  }

  /** Executes a message call on the state after `ref` with that block as environment; nothing is persisted. */
  async call(ref: BlockRef, msg: CallMessage): Promise<CallResult | undefined> {
    const block = await this.getBlock(ref);
    if (block === undefined) return undefined;
    const key = bytesToHex(block.hash());
    let executor = this.callExecutors.get(key);
    if (executor === undefined) {
      executor = new CallExecutor({
        store: this.nodes,
        common: this.commonAt(block.header.number),
        stateRoot: block.header.stateRoot,
        envBlock: block,
        ancestors: this.ancestorsOf(block.header),
      });
      this.callExecutors.set(key, executor);
    }
    return executor.run(msg);
  }

  /**
   * The ECIP-1097 checkpoint block on `parentHash` carrying `signatures` (sorted as the ECIP orders them), ready
   * for `importBlock`, which validates it; undefined for an unknown parent.
   */
  async checkpointBlock(parentHash: Uint8Array, signatures: readonly CheckpointSignature[]): Promise<Block | undefined> {
    const parent = await this.store.getHeader(parentHash);
    if (parent === undefined) return undefined;
    return buildCheckpointBlock(parent, signatures, this.commonAt(parent.number + 1n));
  }

  /** Decodes a header's RLP field list (as peers send it) with the fork rules of its height. */
  decodeHeaderValues(values: readonly Uint8Array[]): BlockHeader {
    return this.codec.header(values as BlockHeaderBytes);
  }

  /** Builds a block from a peer's header and body field lists (transactions: typed as bytes, legacy as lists). */
  decodeBlockValues(header: readonly Uint8Array[], txs: readonly (Uint8Array | readonly Uint8Array[])[], uncles: readonly (readonly Uint8Array[])[]): Block {
    return this.codec.block([header, txs, uncles] as unknown as BlockBytes);
  }

  /** Decodes a block received from a peer or test_importRawBlock with the fork rules of its height. */
  decodeBlock(rlp: Uint8Array): Block {
    return this.codec.blockFromRLP(rlp);
  }

  // ---------------------------------------------------------------- writes

  /** Validates, executes and stores a block, then applies fork choice. One import runs at a time. */
  importBlock(block: Block): Promise<ImportResult> {
    const run = this.importQueue.then(() => this.importTimed(block));
    this.importQueue = run.catch(() => undefined);
    return run;
  }

  /** Moves the head back to canonical block `number` (test_rewindToBlock); later blocks stay stored as a side chain. */
  rewindTo(number: bigint): Promise<Block> {
    const run = this.importQueue.then(() => this.rewindNow(number));
    this.importQueue = run.catch(() => undefined);
    return run;
  }

  /**
   * Builds the contents of a child of `parentHash` (default: head) from candidate transactions, executing
   * them once; the miner seals `template` and imports `seal(nonce, mixHash)`.
   */
  async assemble(opts: AssembleOptions): Promise<AssembledBlock> {
    const parent = await this.store.getHeader(opts.parentHash ?? this.head.hash());
    if (parent === undefined) throw new Error('assemble: unknown parent block');
    return this.assembleOn(parent, opts, this.takeWarm(parent));
  }

  /** The warm state if it is `parent`'s and usable for its child; the field is emptied either way. */
  private takeWarm(parent: BlockHeader): OpenedState | undefined {
    const warm = this.warm;
    this.warm = undefined;
    if (warm === undefined || !equalsBytes(warm.hash, parent.hash()) || warm.common !== this.commonAt(parent.number + 1n)) return undefined;
    if ((this.warmGas.get(warm.state) ?? 0n) > WARM_STATE_GAS) return undefined;
    // The previous block's nodes are written (and remembered by the node store): this block's batch gets its own.
    warm.state.buffer.pending.clear();
    return warm.state;
  }

  /** After `switchHead` made an assembled block the head: its state becomes the warm one (once per execution). */
  private keepWarm(block: Block, result: RunnerResult): void {
    if (result.state === undefined || this.lentResults.has(result)) return;
    this.lentResults.add(result);
    this.warmGas.set(result.state, (this.warmGas.get(result.state) ?? 0n) + block.header.gasUsed);
    this.warm = { hash: block.hash(), state: result.state, common: this.commonAt(block.header.number) };
  }

  /**
   * Builds, seals and stores `count` empty children of the head, one on another (qa_mineBlocks, test_mineBlocks
   * with nothing pending). Blocks go in chunks of up to `BULK_CHUNK`: each chunk is one atomic LevelDB batch
   * holding every block's header, body, receipts, total difficulty, state nodes and canonical entry, and the head
   * pointer at its last block, so the per-block cost is the block's own work, not a database round trip. Each
   * block passes the same header rules as `importBlock` (its seal too unless the sealer checked it); an empty
   * block has no body to check and no log or address postings. Its only state change is its reward, credited
   * straight into the trie (exec/bulk-rewards.ts), and its header is built once and encoded once (stored and
   * hashed from the same bytes). Chunks queue with imports, so a peer's block
   * may land between two chunks; the next chunk then builds on the new head. `newHead` and `blockImported`
   * fire per block, in order, once its chunk is written.
   */
  async extendHead(opts: ExtendHeadOptions): Promise<ExtendedBlock[]> {
    const out: ExtendedBlock[] = [];
    let done = 0;
    while (done + out.length < opts.count) {
      const size = Math.min(BULK_CHUNK, opts.count - done - out.length);
      const started = performance.now();
      const run = this.importQueue.then(() => this.extendChunk(size, opts));
      this.importQueue = run.catch(() => undefined);
      const chunk = await run;
      opts.onChunk?.(chunk, performance.now() - started);
      if (opts.collect === false) done += chunk.length;
      else out.push(...chunk);
    }
    return out;
  }

  private async extendChunk(count: number, opts: ExtendHeadOptions): Promise<ExtendedBlock[]> {
    const started = performance.now();
    const batch = new WriteBatch();
    const built: { block: Block; extended: ExtendedBlock; td: bigint }[] = [];
    let parent = this.head.header;
    let td = this.headTd;
    // An empty block changes the state by its rewards alone: credited straight into the trie (exec/bulk-rewards.ts),
    // every block of the chunk continuing on its parent's root, all nodes in one buffer for the chunk's batch.
    const ledger = new RewardLedger(this.nodes, this.commonAt(parent.number + 1n), parent.stateRoot);
    const coinbase = new Address(opts.coinbase);
    // The miner's warm state, if it is the head's, goes on past the chunk (see carryWarm) with the chunk's rewards.
    const warm = this.warm !== undefined && equalsBytes(this.warm.hash, parent.hash()) ? this.warm : undefined;
    this.warm = undefined;
    // Per address (hex), what the chunk's rewards paid it: credited to the carried warm state at the end.
    const rewarded = new Map<string, RewardCredit>();
    const extraData = opts.extraData ?? new Uint8Array(0);
    // Shared by the chunk's headers, which never change their fields (frozen objects).
    const logsBloom = new Uint8Array(256);
    let fresh: Common | undefined;
    let common!: Common;
    for (let i = 0; i < count; i++) {
      const number = parent.number + 1n;
      // The rules hand out one Common per rule set: look the shared one up only when it changes.
      const rulesCommon = this.opts.rules.commonAt(number);
      if (rulesCommon !== fresh) {
        fresh = rulesCommon;
        common = this.commonAt(number);
      }
      const now = BigInt(Math.floor(Date.now() / 1000));
      const timestamp = opts.timestamp?.() ?? (now > parent.timestamp ? now : parent.timestamp + 1n);
      // The rules read a reward's block number and coinbase; an empty block has no uncles.
      const rewards = this.opts.rules.rewards({ number, coinbase } as BlockHeader, []);
      if (warm !== undefined) {
        for (const { address, amount } of rewards) {
          const key = bytesToHex(address);
          rewarded.set(key, { address, amount: (rewarded.get(key)?.amount ?? 0n) + amount });
        }
      }
      const credited = ledger.credit(rewards);
      const stateRoot = credited instanceof Uint8Array ? credited : await credited;
      const assembled = this.emptyAssembled(common, {
        parentHash: parent.hash(),
        uncleHash: KECCAK256_RLP_ARRAY,
        coinbase: opts.coinbase,
        stateRoot,
        transactionsTrie: KECCAK256_RLP,
        receiptTrie: KECCAK256_RLP,
        logsBloom,
        difficulty: this.opts.rules.difficulty(parent, timestamp),
        number,
        gasLimit: parent.gasLimit,
        gasUsed: 0n,
        timestamp,
        extraData,
      });
      const block = await opts.seal(assembled);
      if (!assembled.made(block)) throw new Error('extendHead: the sealer must return the block from assembled.seal');
      await this.validateHeader(parent, block.header, 'block', assembled.verified);
      // Only a heavier chain becomes the head (importNow's rule); a zero-difficulty child would not be.
      if (block.header.difficulty === 0n) throw this.invalid(block, 'invalid-header', 'zero difficulty cannot extend the head');
      td += block.header.difficulty;
      // The header is encoded once: the hash is taken from the stored bytes (and kept by the header).
      const headerBytes = block.header.serialize();
      const hash = common.customCrypto.keccak256!(headerBytes);
      keepHeaderHash(block.header, hash);
      this.store.stageEmptyCanonicalBlock(batch, hash, headerBytes, number, td);
      if (this.federation !== undefined) this.store.stageLastCheckpoint(batch, hash, this.headCheckpoint);
      built.push({ block, extended: { assembled, block }, td });
      parent = block.header;
    }
    ledger.writeTo(batch);
    this.store.stageHead(batch, parent.hash());
    await this.db.write(batch);
    this.nodes.remember(ledger.latestNodes());
    const durationMs = (performance.now() - started) / Math.max(1, count);
    const imported = this.listenerCount('blockImported') > 0;
    const extended: ExtendedBlock[] = [];
    for (const { block, extended: made, td: blockTd } of built) {
      this.store.remember(block, []);
      this.store.noteCanonical(block.header.number, block.hash());
      this.head = block;
      this.headTd = blockTd;
      this.emit('newHead', block);
      if (imported) this.emit('blockImported', { block, status: 'head', durationMs });
      extended.push(made);
    }
    if (warm !== undefined && built.length > 0) await this.carryWarm(warm, [...rewarded.values()], built[built.length - 1].block);
    return extended;
  }

  /**
   * After a chunk of empty blocks on the warm state's block: the same rewards credited to that state bring it to the
   * new head's, so the next mined block continues on it instead of opening the trie and building a VM again. Kept
   * only when its root is the head's state root (else the next block starts cold, as after any other head change).
   */
  private async carryWarm(warm: WarmState, rewards: readonly RewardCredit[], head: Block): Promise<void> {
    const common = this.commonAt(head.header.number);
    if (warm.common !== common) return;
    const sm = warm.state.stateManager;
    await sm.checkpoint();
    await creditRewards(sm, rewards);
    await sm.commit();
    const root = await sm.getStateRoot();
    // The chunk's batch stored these nodes already.
    warm.state.buffer.pending.clear();
    if (equalsBytes(root, head.header.stateRoot)) this.warm = { hash: head.hash(), state: warm.state, common };
  }

  /**
   * An empty block's assembly for `extendChunk`: its header fields are final but for the seal, and nothing is
   * executed on import (`made` tells the chunk the sealer returned this assembly's block).
   */
  private emptyAssembled(common: Common, fields: HeaderData): AssembledBlock & { made(block: Block): boolean; readonly verified: boolean } {
    const withCheckpointField = this.federation?.activeAt(fields.number as bigint) === true;
    const build = (nonce: Uint8Array, mixHash: Uint8Array): Block => {
      const data = { ...fields, nonce, mixHash };
      const header = withCheckpointField ? new Ecip1097Header(data, { common }, undefined) : createBlockHeader(data, { common });
      return new Block(header, [], [], undefined, { common });
    };
    let template: Block | undefined;
    let sealed: Block | undefined;
    let verified = false;
    return {
      get template() {
        template ??= build(new Uint8Array(8), new Uint8Array(32));
        return template;
      },
      transactions: NONE,
      receipts: NONE,
      rejected: NONE,
      seal(nonce, mixHash, sealVerified = false) {
        sealed = build(nonce, mixHash);
        verified = sealVerified;
        return sealed;
      },
      made: (block) => block === sealed,
      get verified() {
        return verified;
      },
    };
  }

  /** `state`: continue on the state the parent's assembly finished on (extendChunk), instead of opening the trie. */
  private async assembleOn(parent: BlockHeader, opts: AssembleOptions, state?: OpenedState): Promise<AssembledBlock> {
    const number = parent.number + 1n;
    const common = this.commonAt(number);
    const now = BigInt(Math.floor(Date.now() / 1000));
    const timestamp = opts.timestamp ?? (now > parent.timestamp ? now : parent.timestamp + 1n);
    const uncles = opts.uncles ?? [];
    const env = {
      parentHash: parent.hash(),
      uncleHash: uncles.length === 0 ? KECCAK256_RLP_ARRAY : common.customCrypto.keccak256!(RLP.encode(uncles.map((u) => u.raw()))),
      coinbase: opts.coinbase,
      difficulty: opts.difficulty ?? this.opts.rules.difficulty(parent, timestamp),
      number,
      gasLimit: opts.gasLimit ?? parent.gasLimit,
      timestamp,
      extraData: opts.extraData ?? new Uint8Array(0),
    };
    // After ECIP-1097 activation every header carries the (here empty) checkpoint field; the seal covers it.
    const withCheckpointField = this.federation?.activeAt(number) === true;
    const newHeader = (data: HeaderData): BlockHeader =>
      withCheckpointField ? new Ecip1097Header(data, { common }, undefined) : createBlockHeader(data, { common });
    const envBlock = new Block(newHeader(env), [], [...uncles], undefined, { common });
    const runner = await BlockRunner.start({
      store: this.nodes,
      common,
      parentStateRoot: parent.stateRoot,
      envBlock,
      ancestors: this.ancestorsOf(parent),
      plainTransfers: this.opts.evmOnly !== true,
      ...(state !== undefined ? { state } : {}),
    });
    const included: TypedTransaction[] = [];
    const rejected: { tx: TypedTransaction; reason: string }[] = [];
    for (const tx of opts.transactions) {
      const outcome = await runner.apply(tx);
      if (outcome.ok) included.push(tx);
      else rejected.push({ tx, reason: outcome.reason });
    }
    const result = await runner.finish(this.opts.rules.rewards(envBlock.header, uncles));
    const headerData = {
      ...env,
      stateRoot: result.stateRoot,
      transactionsTrie: transactionsRoot(included, common),
      receiptTrie: result.receiptsRoot,
      logsBloom: result.logsBloom,
      gasUsed: result.gasUsed,
    };
    const build = (nonce: Uint8Array, mixHash: Uint8Array): Block =>
      new Block(newHeader({ ...headerData, nonce, mixHash }), included, [...uncles], undefined, { common });
    // Built on first use: the Ethash sealer hashes it, the instant seal never looks at it.
    let template: Block | undefined;
    return {
      get template() {
        template ??= build(new Uint8Array(8), new Uint8Array(32));
        return template;
      },
      transactions: included,
      receipts: result.receipts,
      rejected,
      seal: (nonce, mixHash, sealVerified = false) => {
        const sealed = build(nonce, mixHash);
        this.preExecuted.set(sealed, result);
        if (sealVerified) this.sealChecked.add(sealed);
        return sealed;
      },
    };
  }

  // ---------------------------------------------------------------- internals

  private async importTimed(block: Block): Promise<ImportResult> {
    const started = performance.now();
    const result = await this.importNow(block);
    if (result.status !== 'known' && this.listenerCount('blockImported') > 0) {
      this.emit('blockImported', { block: result.block, status: result.status, durationMs: performance.now() - started });
    }
    return result;
  }

  private async importNow(block: Block): Promise<ImportResult> {
    const hash = block.hash();
    if ((await this.store.getNumber(hash)) !== undefined) {
      // A stored side block (e.g. the old head after a rewind) that now outweighs the head becomes the head again.
      const weight = await this.storedWeight(hash);
      if (weight !== undefined && heavier(weight, this.headWeight()) && !(await this.isCanonical(hash))) {
        const stored = (await this.store.getBlock(hash)) ?? block;
        if (await this.keepsLatestCheckpoint(stored)) return this.switchHead(new WriteBatch(), stored, weight);
      }
      return { status: 'known', hash };
    }
    const header = block.header;
    const parent = await this.store.getHeader(header.parentHash);
    if (parent === undefined) {
      throw new BlockImportError('unknown-parent', `block ${header.number} ${bytesToHex(hash)}: unknown parent ${bytesToHex(header.parentHash)}`);
    }
    const common = this.commonAt(header.number);
    if (block.common.hardfork() !== common.hardfork()) block = this.codec.block(block.raw());
    // ECIP-1097 checkpoint blocks have their own rules: no seal, no execution, no reward (only where configured).
    const checkpoint = this.federation === undefined ? undefined : checkpointOf(header);
    // A block this chain assembled was built from valid parts; only the seal is new.
    const assembled = this.preExecuted.get(block);
    // Consumed here: kept, it would hold its state (caches, node buffer) as long as the block stays cached.
    this.preExecuted.delete(block);
    if (checkpoint !== undefined) {
      this.validateCheckpointBlock(parent, block, checkpoint);
    } else {
      await this.validateHeader(parent, header, 'block', this.sealChecked.has(block));
      if (assembled === undefined) await this.validateBody(block, parent, common);
    }

    const result = checkpoint !== undefined ? this.unexecuted(parent) : assembled ?? (await this.execute(block, parent, common));
    const parentTd = equalsBytes(header.parentHash, this.head.hash()) ? this.headTd : (await this.store.getTotalDifficulty(parent.hash()))!;
    const td = parentTd + header.difficulty;
    const weight: ChainWeight = {
      // Each checkpoint is newer than every one before it on its chain (its number is above its parent's).
      lastCheckpoint:
        this.federation === undefined ? 0n : checkpoint !== undefined ? header.number : ((await this.store.getLastCheckpoint(parent.hash())) ?? 0n),
      totalDifficulty: td,
    };

    const batch = new WriteBatch();
    result.stateWrites.writeTo(batch);
    this.store.stageBlock(batch, block, result.receipts, td);
    if (this.federation !== undefined) this.store.stageLastCheckpoint(batch, hash, weight.lastCheckpoint);
    // Log postings are per block hash and immutable like receipts, so they go in the block's own batch.
    batch.ops.push(...indexWrites(block, result.receipts), ...addressIndexWrites(block, result.receipts));
    if (!heavier(weight, this.headWeight()) || !(await this.keepsLatestCheckpoint(block))) {
      await this.db.write(batch);
      this.nodes.remember(result.stateWrites.pending);
      this.store.remember(block, result.receipts);
      return { status: 'side', block };
    }
    return this.switchHead(batch, block, weight, () => {
      this.nodes.remember(result.stateWrites.pending);
      this.store.remember(block, result.receipts);
      if (assembled !== undefined) this.keepWarm(block, assembled);
    });
  }

  private headWeight(): ChainWeight {
    return { lastCheckpoint: this.headCheckpoint, totalDifficulty: this.headTd };
  }

  private async storedWeight(hash: Uint8Array): Promise<ChainWeight | undefined> {
    const totalDifficulty = await this.store.getTotalDifficulty(hash);
    if (totalDifficulty === undefined) return undefined;
    const lastCheckpoint = this.federation === undefined ? 0n : ((await this.store.getLastCheckpoint(hash)) ?? 0n);
    return { lastCheckpoint, totalDifficulty };
  }

  /**
   * ECIP-1097: a checkpoint "can never be rolled back". A new head must descend from the head's latest checkpoint
   * block, whatever its weight (a conflicting, later checkpoint included). Always true without checkpoints.
   */
  private async keepsLatestCheckpoint(block: Block): Promise<boolean> {
    const floor = this.headCheckpoint;
    if (floor === 0n || equalsBytes(block.header.parentHash, this.head.hash())) return true;
    if (block.header.number <= floor) return false;
    let cursor = await this.store.getHeader(block.header.parentHash);
    while (cursor !== undefined && cursor.number > floor) {
      // A canonical block above the checkpoint descends from it.
      if (await this.isCanonical(cursor.hash())) return true;
      cursor = await this.store.getHeader(cursor.parentHash);
    }
    const checkpointHash = await this.store.getCanonicalHash(floor);
    return cursor !== undefined && checkpointHash !== undefined && equalsBytes(cursor.hash(), checkpointHash);
  }

  /** A checkpoint block's outcome: the parent's state unchanged, no receipts, no reward. */
  private unexecuted(parent: BlockHeader): RunnerResult {
    return {
      receipts: [],
      gasUsed: 0n,
      stateRoot: parent.stateRoot,
      receiptsRoot: KECCAK256_RLP,
      logsBloom: new Uint8Array(256),
      stateWrites: new BufferedTrieDB(this.nodes),
    };
  }

  /** Makes a stored (or being-stored, in `batch`) block the head: canonical index, tx index and head pointer in one write. */
  private async switchHead(batch: WriteBatch, block: Block, weight: ChainWeight, afterWrite?: () => void): Promise<ImportResult> {
    this.warm = undefined;
    const change = await this.stageCanonicalSwitch(batch, block);
    this.store.stageHead(batch, block.hash());
    await this.db.write(batch);

    afterWrite?.();
    if (change.dropped.length > 0) this.store.forgetCanonical();
    else for (const b of change.added) this.store.noteCanonical(b.header.number, b.hash());
    this.head = block;
    this.headTd = weight.totalDifficulty;
    this.headCheckpoint = weight.lastCheckpoint;
    if (change.dropped.length > 0) this.emit('reorg', change);
    this.emit('newHead', block);
    return { status: 'head', block, dropped: change.dropped, added: change.added };
  }

  private async rewindNow(number: bigint): Promise<Block> {
    const target = await this.getBlock(number);
    if (target === undefined) throw new Error(`cannot rewind to block ${number}: beyond the head ${this.head.header.number}`);
    if (number === this.head.header.number) return this.head;
    this.warm = undefined;
    const batch = new WriteBatch();
    const dropped: Block[] = [];
    for (let n = this.head.header.number; n > number; n--) {
      const b = (await this.getBlock(n))!;
      dropped.push(b);
      this.store.stageNonCanonical(batch, b, true);
    }
    this.store.stageHead(batch, target.hash());
    await this.db.write(batch);
    this.store.forgetCanonical();
    this.head = target;
    this.headTd = (await this.store.getTotalDifficulty(target.hash()))!;
    if (this.federation !== undefined) this.headCheckpoint = (await this.store.getLastCheckpoint(target.hash())) ?? 0n;
    this.emit('reorg', { dropped, added: [], commonAncestor: target });
    this.emit('newHead', target);
    return target;
  }

  /** Stages the canonical index and tx index change that makes `newHead` the head. */
  private async stageCanonicalSwitch(batch: WriteBatch, newHead: Block): Promise<ReorgEvent> {
    const added: Block[] = [newHead];
    let cursor = (await this.store.getBlock(newHead.header.parentHash))!;
    while (!(await this.isCanonical(cursor.hash()))) {
      added.unshift(cursor);
      cursor = (await this.store.getBlock(cursor.header.parentHash))!;
    }
    const dropped: Block[] = [];
    for (let n = this.head.header.number; n > cursor.header.number; n--) {
      dropped.push((await this.getBlock(n))!);
    }
    for (const b of dropped) this.store.stageNonCanonical(batch, b, b.header.number > newHead.header.number);
    for (const b of added) this.store.stageCanonical(batch, b);
    return { dropped, added, commonAncestor: cursor };
  }

  private async execute(block: Block, parent: BlockHeader, common: Common): Promise<RunnerResult> {
    const runner = await BlockRunner.start({
      store: this.nodes,
      common,
      parentStateRoot: parent.stateRoot,
      envBlock: block,
      ancestors: this.ancestorsOf(parent),
   
      plainTransfers: this.opts.evmOnly !== true,
    });
    for (let i = 0; i < block.transactions.length; i++) {
      const outcome = await runner.apply(block.transactions[i]);
      if (!outcome.ok) throw this.invalid(block, 'invalid-body', `transaction ${i} cannot be applied: ${outcome.reason}`);
    }
    const result = await runner.finish(this.opts.rules.rewards(block.header, block.uncleHeaders));
    const h = block.header;
    const mismatch = (what: string, have: unknown, want: unknown) =>
      this.invalid(block, 'invalid-state', `${what} mismatch: header has ${have}, execution gives ${want}`);
    if (h.gasUsed !== result.gasUsed) throw mismatch('gasUsed', h.gasUsed, result.gasUsed);
    if (!equalsBytes(h.receiptTrie, result.receiptsRoot)) throw mismatch('receiptsRoot', bytesToHex(h.receiptTrie), bytesToHex(result.receiptsRoot));
    if (!equalsBytes(h.logsBloom, result.logsBloom)) throw mismatch('logsBloom', 'another bloom', 'a different one');
    if (!equalsBytes(h.stateRoot, result.stateRoot)) throw mismatch('stateRoot', bytesToHex(h.stateRoot), bytesToHex(result.stateRoot));
    return result;
  }

  private async validateHeader(parent: BlockHeader, header: BlockHeader, what: 'block' | 'uncle', sealVerified = false): Promise<void> {
    const fail = (failure: ImportFailure, reason: string) =>
      new BlockImportError(failure, `${what} ${header.number} ${bytesToHex(header.hash())}: ${reason}`);
    if (header.number !== parent.number + 1n) throw fail('invalid-header', `number is not parent number + 1`);
    // The ECIP-1097 field is present exactly from its activation block (an instanceof test without checkpointing).
    const form = checkpointFieldFault(header, this.federation);
    if (form !== undefined) throw new BlockImportError('invalid-header', `${what} ${header.number} ${bytesToHex(header.hash())}: ${form.message}`, form);
    const verdict = await this.opts.rules.validateHeader(parent, header);
    if (typeof verdict === 'string') throw fail('invalid-header', verdict);
    if (this.opts.noProof !== true && !sealVerified) {
      const seal = await this.opts.seal!.verify(header);
      if (seal !== true) throw fail('invalid-seal', seal);
    }
  }

  /** ECIP-1097 §5.5: signatures over the parent hash, the fields §5.3 fixes, an empty body. */
  private validateCheckpointBlock(parent: BlockHeader, block: Block, checkpoint: Checkpoint): void {
    const header = block.header;
    if (header.number !== parent.number + 1n) throw this.invalid(block, 'invalid-header', 'number is not parent number + 1');
    const fault =
      checkpointHeaderFault(header, checkpoint, parent, this.federation) ??
      (block.transactions.length > 0 || block.uncleHeaders.length > 0
        ? { code: 'malformed-checkpoint-block' as const, message: 'the body is not empty (a checkpoint block has no transactions and no uncles)' }
        : undefined);
    if (fault !== undefined) {
      throw new BlockImportError('invalid-checkpoint', `block ${header.number} ${bytesToHex(block.hash())}: invalid checkpoint: ${fault.message}`, fault);
    }
  }

  private async validateBody(block: Block, parent: BlockHeader, common: Common): Promise<void> {
    if (!equalsBytes(transactionsRoot(block.transactions, common), block.header.transactionsTrie)) throw this.invalid(block, 'invalid-body', 'transactions root mismatch');
    if (!block.uncleHashIsValid()) throw this.invalid(block, 'invalid-body', 'uncle hash mismatch');
    const uncles = block.uncleHeaders;
    if (uncles.length === 0) return;
    if (uncles.length > MAX_UNCLES) throw this.invalid(block, 'invalid-body', `more than ${MAX_UNCLES} uncles`);
    // Ancestors (up to 7 generations back) and every uncle they already included.
    const ancestors = new Map<string, BlockHeader>();
    const usedUncles = new Set<string>();
    let cursor: BlockHeader | undefined = parent;
    for (let i = 0; i < UNCLE_GENERATIONS && cursor !== undefined; i++) {
      ancestors.set(bytesToHex(cursor.hash()), cursor);
      const b = await this.store.getBlock(cursor.hash());
      for (const u of b?.uncleHeaders ?? []) usedUncles.add(bytesToHex(u.hash()));
      cursor = cursor.number === 0n ? undefined : await this.store.getHeader(cursor.parentHash);
    }
    for (const uncle of uncles) {
      const key = bytesToHex(uncle.hash());
      // A checkpoint block has no proof of work to reward; Mantis would take it as an uncle, this node does not.
      if (checkpointOf(uncle) !== undefined) throw this.invalid(block, 'invalid-body', `uncle ${key} is an ECIP-1097 checkpoint block`);
      if (ancestors.has(key)) throw this.invalid(block, 'invalid-body', `uncle ${key} is an ancestor`);
      if (usedUncles.has(key)) throw this.invalid(block, 'invalid-body', `uncle ${key} is already included`);
      usedUncles.add(key);
      const uncleParent = ancestors.get(bytesToHex(uncle.parentHash));
      if (uncleParent === undefined || equalsBytes(uncle.parentHash, block.header.parentHash)) {
        throw this.invalid(block, 'invalid-body', `uncle ${key} is not a sibling of a recent ancestor`);
      }
      await this.validateHeader(uncleParent, uncle, 'uncle');
    }
  }

  private invalid(block: Block, failure: ImportFailure, reason: string): BlockImportError {
    return new BlockImportError(failure, `block ${block.header.number} ${bytesToHex(block.hash())}: ${reason}`);
  }

  /** BLOCKHASH for a block whose parent is `parent`: walks its own ancestry, which may leave the canonical chain. */
  private ancestorsOf(parent: BlockHeader): EVMMockBlockchainInterface {
    const hashAt = async (n: bigint): Promise<Uint8Array> => {
      let cursor: BlockHeader | undefined = parent;
      while (cursor !== undefined && cursor.number > n) {
        if (await this.isCanonical(cursor.hash())) return (await this.store.getCanonicalHash(n))!;
        cursor = await this.store.getHeader(cursor.parentHash);
      }
      return cursor?.number === n ? cursor.hash() : new Uint8Array(32);
    };
    const chain: EVMMockBlockchainInterface = {
      getBlock: async (n: number) => {
        const hash = await hashAt(BigInt(n));
        return { hash: () => hash } as Awaited<ReturnType<EVMMockBlockchainInterface['getBlock']>>;
      },
      putBlock: async () => {},
      shallowCopy: () => chain,
    };
    return chain;
  }
}


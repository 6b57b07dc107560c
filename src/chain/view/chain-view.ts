/**
 * Reads of the stored chain: blocks, headers, receipts and transactions by hash or height, state and calls at a
 * block, and decoding of peers' blocks. It holds the head (block, total difficulty, latest checkpoint); only fork
 * choice and bulk assembly move it, through `moveHead`, which also tells whoever follows the head (the warm state).
 */
import type { Block, BlockBytes, BlockHeader, BlockHeaderBytes } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import type { TypedTransaction } from '@ethereumjs/tx';
import { type Account, type Address, bytesToHex, equalsBytes } from '@ethereumjs/util';
import {
  buildCheckpointBlock,
  checkpointOf,
  type ChainWeight,
  type CheckpointSignature,
  type Federation,
} from '../checkpointing/index.js';
import type { BlockCodec } from '../codec/block-codec.js';
import type { TxReceipt } from '../codec/receipts.js';
import type { SharedCommons } from '../exec/commons.js';
import type { BlockStore, TxLocation } from '../db/block-store.js';
import { Lru } from '../db/lru.js';
import type { CacheLimits } from '../base/cache-limits.js';
import { CallExecutor, type CallMessage, type CallResult } from '../exec/call.js';
import type { CallPool, PooledState } from './call-pool.js';
import { compact } from '../exec/call-worker-protocol.js';
import { EditedRoots } from '../state/edited-roots.js';
import { assertStateKept, StateRetention } from '../state/retention.js';
import type { FlatTable } from '../state/flat-table.js';
import { assertStateHeld, decodeSnapBase, type SnapBase } from '../state/snap-base.js';
import { StateView } from '../state/state-reader.js';
import { type KnownAccounts, openReadState } from '../state/state-view.js';
import type { TrieNodeStore } from '../state/trie-db.js';

/** A block by canonical height, by hash, or a tag. ('pending' belongs to the miner, not the engine.) */
export type BlockRef = bigint | Uint8Array | 'latest' | 'earliest';

export interface TransactionLookup {
  readonly tx: TypedTransaction;
  readonly block: Block;
  readonly index: number;
  readonly receipt: TxReceipt;
}

export interface HeadStateFollower {
  follow(head: Block): void;
  knownAccounts(blockHash: Uint8Array): KnownAccounts;
}

export class ChainView {
  private head!: Block;
  private headTd!: bigint;
  /** Number of the latest checkpoint block on the canonical chain (always 0 without checkpointing). */
  private headCheckpoint = 0n;
  private genesis!: Block;
  /**
   * Per block hash (hex): shared read views and call executors of recent blocks. Both depend only on the block (its
   * state is immutable), so they never go stale; the bound (`CacheLimits.stateViews`, `callExecutors`) is for
   * memory. Reads cluster on the head and a few blocks below it.
   */
  private readonly stateViews: Lru<string, StateView>;
  /** On a forked chain: its base height and where hashes below it come from (fork/fork-base.ts). */
  forkAncestry: { readonly base: bigint; hashAt(number: bigint): Promise<Uint8Array> } | undefined;
  /** Per block hash (hex): its call executor, and its state as the call pool serves it to workers. */
  private readonly callExecutors: Lru<string, { readonly executor: CallExecutor; readonly pooled: PooledState }>;
  /** `ancestorsOf`'s answers, held only as long as their header object lives (the block store's caches bound it). */
  private readonly ancestors = new WeakMap<BlockHeader, EVMMockBlockchainInterface>();
  /**
   * The block a snap sync started from (state/snap-base.ts): states below it are not held. Read once at open, and
   * set by the snap handover (`adoptSnapBase`) when it stores one; it never changes afterwards, so head moves do
   * not read it (a read per head move was once a large part of a dev block).
   */
  private snapBase: SnapBase | undefined;
  /** Dev state edits in place: blocks whose post-state is not their header's state root (state/edited-roots.ts). */
  readonly edited = new EditedRoots();

  constructor(
    private readonly store: BlockStore,
    private readonly nodes: TrieNodeStore,
    private readonly codec: BlockCodec,
    private readonly commons: SharedCommons,
    private readonly federation: Federation | undefined,
    limits: CacheLimits,
    /**
     * The miner's kept state (assembly/warm-state.ts): told of every head move, after it; and the accounts of a
     * block's post-state it holds in memory, for that block's read view.
     */
    private readonly headState: HeadStateFollower,
    /** The flat state (state/flat-table.ts): every head move's batch is written through it (`writeHead`). */
    readonly flat: FlatTable,
    /** Which states are kept (`--gcmode`): reads of the others are refused by this policy, whatever the store holds. */
    readonly retention: StateRetention = new StateRetention(),
    /** Worker threads for calls (`exec.workers`); undefined = calls run on this thread. */
    private readonly callPool?: CallPool,
  ) {
    this.stateViews = new Lru(limits.stateViews);
    this.callExecutors = new Lru(limits.callExecutors);
  }

  /** Sets the stored genesis and head the chain opens on. */
  async openAt(genesis: Block, headHash: Uint8Array | undefined): Promise<void> {
    this.genesis = genesis;
    const head = headHash && (await this.store.getBlock(headHash));
    const td = headHash && (await this.store.getTotalDifficulty(headHash));
    if (!head || td === undefined) throw new Error('the chain database has no readable head block');
    this.head = head;
    this.headTd = td as bigint;
    if (this.federation !== undefined) this.headCheckpoint = (await this.store.getLastCheckpoint(head.hash())) ?? 0n;
    this.edited.load(await this.store.getMeta('editedState'));
    this.readSnapBase();
  }

  /** The one way the head changes (the caller has written the head pointer). */
  moveHead(block: Block, weight: ChainWeight): void {
    this.head = block;
    this.headTd = weight.totalDifficulty;
    this.headCheckpoint = weight.lastCheckpoint;
    this.headState.follow(block);
  }

  private readSnapBase(): void {
    this.snapBase = decodeSnapBase(this.store.getMetaSync('snapBase'));
  }

  /** The snap client's handover stored `base` (state/snap-store.ts): states below it are not held from now on. */
  adoptSnapBase(base: SnapBase): void {
    this.snapBase = base;
  }

  /**
   * Throws StateNotHeldError for a block whose state this node never had (below its snap-sync base), and
   * StateNotKeptError for one the retention policy does not keep (a side-chain block by its number against the head).
   */
  assertStateHeld(block: BlockHeader | Block): void {
    const number = 'header' in block ? block.header.number : block.number;
    assertStateHeld(number, this.snapBase);
    assertStateKept(this.retention, number, this.head.header.number);
  }

  /**
   * Where a replay on the state after `header` starts: `header` itself when that state is kept, else its ancestor
   * at the nearest kept state at most `reexec` blocks below (the blocks between are re-executed). Throws
   * StateNotKeptError beyond that bound and StateNotHeldError below the snap-sync base.
   */
  async replayStart(header: BlockHeader): Promise<BlockHeader> {
    const head = this.head.header.number;
    const start = this.retention.reexecStart(header.number, head);
    if (start === undefined) throw this.retention.notKeptError(header.number, head);
    let cursor: BlockHeader | undefined = header;
    while (cursor !== undefined && cursor.number > start) cursor = await this.store.getHeader(cursor.parentHash);
    if (cursor === undefined) throw this.retention.notKeptError(header.number, head);
    this.assertStateHeld(cursor);
    return cursor;
  }

  /** False for an ECIP-1097 checkpoint block: the chain does not execute it (its state is its parent's). */
  executes(header: BlockHeader): boolean {
    return this.federation === undefined || checkpointOf(header) === undefined;
  }

  /** The root of the state after `header`'s block (see state/edited-roots.ts). */
  stateRootAfter(header: BlockHeader): Uint8Array {
    return this.edited.rootAfter(header);
  }

  /** The state after block `hashHex` changed in place: its read view and call executor are dropped. */
  forgetState(hashHex: string): void {
    this.stateViews.delete(hashHex);
    this.callExecutors.delete(hashHex);
  }

  commonAt(number: bigint): Common {
    return this.commons.commonAt(number);
  }

  getHead(): Block {
    return this.head;
  }

  getHeadTotalDifficulty(): bigint {
    return this.headTd;
  }

  getHeadLastCheckpoint(): bigint {
    return this.headCheckpoint;
  }

  headWeight(): ChainWeight {
    return { lastCheckpoint: this.headCheckpoint, totalDifficulty: this.headTd };
  }

  async storedWeight(hash: Uint8Array): Promise<ChainWeight | undefined> {
    const totalDifficulty = await this.store.getTotalDifficulty(hash);
    if (totalDifficulty === undefined) return undefined;
    const lastCheckpoint = this.federation === undefined ? 0n : ((await this.store.getLastCheckpoint(hash)) ?? 0n);
    return { lastCheckpoint, totalDifficulty };
  }

  /** Number of the latest checkpoint block in the chain ending at a stored block; undefined without checkpointing. */
  async getLastCheckpointNumber(hash: Uint8Array): Promise<bigint | undefined> {
    if (this.federation === undefined) return undefined;
    return (await this.store.getLastCheckpoint(hash)) ?? 0n;
  }

  getGenesis(): Block {
    return this.genesis;
  }

  /**
   * Canonical block at a height, or by hash (any stored block, canonical or not). The store's promise itself where
   * it answers: an async function returning a promise costs another promise and two turns of the microtasks (every
   * trace asks for its block, its parent's header and its transaction's location).
   */
  getBlock(ref: BlockRef): Promise<Block | undefined> {
    if (ref instanceof Uint8Array) return this.store.getBlock(ref);
    return this.blockAt(ref);
  }

  private async blockAt(ref: Exclude<BlockRef, Uint8Array>): Promise<Block | undefined> {
    if (ref === 'latest') return this.head;
    if (ref === 'earliest') return this.genesis;
    if (ref === this.head.header.number) return this.head;
    if (ref > this.head.header.number || ref < 0n) return undefined;
    const hash = await this.store.getCanonicalHash(ref);
    return hash === undefined ? undefined : this.store.getBlock(hash);
  }

  getHeader(hash: Uint8Array): Promise<BlockHeader | undefined> {
    return this.store.getHeader(hash);
  }

  async getCanonicalHash(number: bigint): Promise<Uint8Array | undefined> {
    if (number > this.head.header.number) return undefined;
    return this.store.getCanonicalHash(number);
  }

  /** `getCanonicalHash` without a read: the cached hash, or undefined (not cached, or above the head). */
  canonicalHashNow(number: bigint): Uint8Array | undefined {
    return number > this.head.header.number ? undefined : this.store.canonicalHashNow(number);
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
  getTransactionLocation(txHash: Uint8Array): Promise<TxLocation | undefined> {
    return this.store.getTxLocation(txHash);
  }

  /** A canonical transaction with its block and receipt. */
  async getTransaction(txHash: Uint8Array): Promise<TransactionLookup | undefined> {
    const at = await this.store.getTxLocation(txHash);
    if (at === undefined) return undefined;
    const [block, receipts] = await Promise.all([
      this.store.getBlock(at.blockHash),
      this.store.getReceipts(at.blockHash),
    ]);
    if (block === undefined || receipts === undefined) return undefined;
    return { tx: block.transactions[at.index], block, index: at.index, receipt: receipts[at.index] };
  }

  /**
   * An account of the head's state from the state its block was assembled on, while that state is still the head's:
   * what `stateAt('latest')`'s view reads first (the same `knownAccounts`), without the view, its memo and promises.
   * The pool reads its senders at every head. Undefined when not known so (null: known to be absent).
   */
  headAccountNow(address: Address): Account | null | undefined {
    return this.headState.knownAccounts(this.head.hash())(address);
  }

  /**
   * Account and storage reads at the state after `ref`; undefined if the block is unknown. Throws
   * StateNotHeldError below the snap-sync base, StateNotKeptError for a state the node does not keep.
   */
  async stateAt(ref: BlockRef): Promise<StateView | undefined> {
    const block = await this.getBlock(ref);
    if (block === undefined) return undefined;
    this.assertStateHeld(block);
    const key = bytesToHex(block.hash());
    let view = this.stateViews.get(key);
    if (view === undefined) {
      const root = this.stateRootAfter(block.header);
      const common = this.commonAt(block.header.number);
      view = new StateView(
        () => openReadState(this.nodes, common, root),
        root,
        this.headState.knownAccounts(block.hash()),
      );
      this.stateViews.set(key, view);
    }
    return view;
  }

  /**
   * Executes a message call on the state after `ref` with that block as environment; nothing is persisted. Throws
   * StateNotHeldError below the snap-sync base, StateNotKeptError for a state the node does not keep.
   */
  async call(ref: BlockRef, msg: CallMessage): Promise<CallResult | undefined> {
    const block = await this.getBlock(ref);
    if (block === undefined) return undefined;
    this.assertStateHeld(block);
    const key = bytesToHex(block.hash());
    let calls = this.callExecutors.get(key);
    if (calls === undefined) {
      const stateRoot = this.stateRootAfter(block.header);
      const ancestors = this.ancestorsOf(block.header);
      const executor = new CallExecutor({
        store: this.nodes,
        common: this.commonAt(block.header.number),
        stateRoot,
        envBlock: block,
        ancestors,
      });
      const pooled = {
        key: key + bytesToHex(stateRoot).slice(2),
        // Copied out of the stored block's bytes once, not cloned with them on every call (call-worker-protocol.ts).
        header: compact(block.header.raw()),
        stateRoot,
        reads: executor.reads,
        ancestors,
      };
      calls = { executor, pooled };
      this.callExecutors.set(key, calls);
    }
    const { executor, pooled } = calls;
    return this.callPool === undefined ? executor.run(msg) : this.callPool.run(pooled, msg, () => executor.run(msg));
  }

  /**
   * The ECIP-1097 checkpoint block on `parentHash` carrying `signatures` (sorted as the ECIP orders them), ready
   * for `importBlock`, which validates it; undefined for an unknown parent.
   */
  async checkpointBlock(
    parentHash: Uint8Array,
    signatures: readonly CheckpointSignature[],
  ): Promise<Block | undefined> {
    const parent = await this.store.getHeader(parentHash);
    if (parent === undefined) return undefined;
    return buildCheckpointBlock(parent, signatures, this.commonAt(parent.number + 1n));
  }

  /** Decodes a header's RLP field list (as peers send it) with the fork rules of its height. */
  decodeHeaderValues(values: readonly Uint8Array[]): BlockHeader {
    return this.codec.header(values as BlockHeaderBytes);
  }

  /** Builds a block from a peer's header and body field lists (transactions: typed as bytes, legacy as lists). */
  decodeBlockValues(
    header: readonly Uint8Array[],
    txs: readonly (Uint8Array | readonly Uint8Array[])[],
    uncles: readonly (readonly Uint8Array[])[],
  ): Block {
    return this.codec.block([header, txs, uncles] as unknown as BlockBytes);
  }

  /** Decodes a block received from a peer or test_importRawBlock with the fork rules of its height. */
  decodeBlock(rlp: Uint8Array): Block {
    return this.codec.blockFromRLP(rlp);
  }

  /** BLOCKHASH for a block whose parent is `parent`: walks its own ancestry, which may leave the canonical chain. */
  ancestorsOf(parent: BlockHeader): EVMMockBlockchainInterface {
    // One per header object (the store caches headers): a trace's replay asks for it on every trace of a block.
    let chain = this.ancestors.get(parent);
    if (chain === undefined) this.ancestors.set(parent, (chain = this.newAncestors(parent)));
    return chain;
  }

  /** Answers nothing it captured but `parent`: canonicity and the fork's ancestry are read at each call. */
  private newAncestors(parent: BlockHeader): EVMMockBlockchainInterface {
    const hashAt = async (n: bigint): Promise<Uint8Array> => {
      if (this.forkAncestry !== undefined && n < this.forkAncestry.base) return this.forkAncestry.hashAt(n);
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

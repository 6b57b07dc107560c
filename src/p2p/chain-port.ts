/**
 * What p2p needs of the node's chain engine, and nothing more: serving peers (headers, bodies, receipts, pooled
 * transactions, snap state ranges), syncing (decode, import) and announcing (new heads, new transactions). The
 * chain engine (src/chain/engine.ts) satisfies these interfaces structurally, so the composition passes it as is
 * and p2p depends on this contract rather than on the whole Blockchain, TxPool or ChainEngine.
 */
import type { Block, BlockHeader } from '@ethereumjs/block';
import type {
  TxReceipt,
  BackfilledBlock,
  HistoryFrontier,
  NetworkDefinition,
  StateView,
  TxAddedEvent,
} from '../chain/index.js';

export interface ChainPort {
  getGenesis(): Block;
  getHead(): Block;
  getHeadTotalDifficulty(): bigint;
  /** Any stored block, canonical or not. */
  getBlock(hash: Uint8Array): Promise<Block | undefined>;
  getHeader(hash: Uint8Array): Promise<BlockHeader | undefined>;
  getCanonicalHash(number: bigint): Promise<Uint8Array | undefined>;
  isCanonical(hash: Uint8Array): Promise<boolean>;
  getReceipts(blockHash: Uint8Array): Promise<readonly TxReceipt[] | undefined>;
  /** State reads for snap serving: the head's ('latest') or a stored block's. */
  stateAt(ref: 'latest' | Uint8Array): Promise<StateView | undefined>;
  /** A peer's header field list, decoded with the fork rules of its height. */
  decodeHeaderValues(values: readonly Uint8Array[]): BlockHeader;
  /** A peer's header and body field lists as a block (transactions: typed as bytes, legacy as lists). */
  decodeBlockValues(
    header: readonly Uint8Array[],
    txs: readonly (Uint8Array | readonly Uint8Array[])[],
    uncles: readonly (readonly Uint8Array[])[],
  ): Block;
  /** Validates, executes and stores a block; rejects with a BlockImportError (chain/import/import-error.ts) when invalid. */
  importBlock(block: Block): Promise<unknown>;
  /** Checks a batch's seals in parallel ahead of importing it (the imports then reuse the verdicts). */
  preverifySeals?(blocks: readonly Block[]): Promise<void>;
  on(event: 'newHead', listener: (block: Block) => void): unknown;
  off(event: 'newHead', listener: (block: Block) => void): unknown;
  /** Seal verdicts of headers that are stored without import (snap sync). */
  checkSeals?(headers: readonly BlockHeader[]): Promise<(true | string)[]>;
  /** Where a snap sync writes (absent: the node can only full-sync). */
  readonly snapState?: SnapStatePort;
  /** Where the history below a snap base is stored (absent: the node never backfills). */
  readonly history?: HistoryPort;
}

/** The history backfill's store (chain/history/backfill-store.ts). */
export interface HistoryPort {
  frontier(): HistoryFrontier | undefined;
  storeBlocks(blocks: readonly BackfilledBlock[]): Promise<void>;
}

/** The writes of a snap sync (chain/state/snap-store.ts); see there for the invariant they keep. */
export interface SnapStatePort {
  hasNode(hash: Uint8Array): Promise<boolean>;
  hasCode(codeHash: Uint8Array): Promise<boolean>;
  readProgress(): Promise<Uint8Array | undefined>;
  write(
    nodes: Iterable<readonly [Uint8Array, Uint8Array]>,
    codes: Iterable<Uint8Array>,
    progress: Uint8Array | undefined,
    options?: { readonly durable?: boolean },
  ): Promise<void>;
  storeHeaders(headers: readonly BlockHeader[], parentTd: bigint, progress: Uint8Array): Promise<bigint>;
  adoptPivot(blocks: readonly Block[], pivot: Block): Promise<void>;
}

export type PooledTxPort = TxAddedEvent['tx'];

export interface PoolPort {
  get(hash: Uint8Array): PooledTxPort | undefined;
  has(hash: Uint8Array): boolean;
  /** Rejects for an invalid, underpriced or known transaction. */
  add(raw: Uint8Array): Promise<{ readonly hash: Uint8Array }>;
  all(): readonly PooledTxPort[];
  on(event: 'tx:added', listener: (event: TxAddedEvent) => void): unknown;
  off(event: 'tx:added', listener: (event: TxAddedEvent) => void): unknown;
}

/** The engine as p2p sees it. */
export interface P2pEngine {
  readonly chain: ChainPort;
  readonly pool: PoolPort;
  /** Network id and fork blocks for the status handshake and fork ids. */
  readonly definition: NetworkDefinition;
}

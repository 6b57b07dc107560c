/**
 * Blocks, receipts and chain indexes on the chain database, with decoded-object caches.
 *
 * Everything keyed by block hash is immutable, so it is cached under an LRU bound without expiry.
 * Everything keyed by height or tx hash follows the canonical chain and is cached only until a reorg.
 * Writes are staged into a WriteBatch by the caller (one per block) and never applied here.
 */
import { headerBytesOf } from '../codec/header-bytes.js';
import type { Block, BlockBytes, BlockHeader, BlockHeaderBytes } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { unpaddedBytes, unpaddedNumberBytes } from '../base/unpadded-bytes.js';
import { encodeRlp } from '../codec/rlp-encode.js';
import { decodeRlpList } from '../codec/rlp-views.js';
import { RLP } from '@ethereumjs/rlp';
import {
  bigIntToUnpaddedBytes,
  bytesToBigInt,
  equalsBytes,
  KECCAK256_RLP,
  KECCAK256_RLP_ARRAY,
} from '@ethereumjs/util';
import { decodeStoredReceipts, encodeStoredReceipts, type TxReceipt } from '../codec/receipts.js';
import { encodeTransactionList, rlpList } from '../codec/tx-bytes.js';
import type { BlockCodec } from '../codec/block-codec.js';
import { DEFAULT_CACHE_LIMITS, type CacheLimits } from '../base/cache-limits.js';
import type { ChainDB, WriteBatch } from './chain-db.js';
import { SCHEMA_VERSION, decodeNumber, encodeNumber, keys, type Allocate, type MetaName } from './keys.js';
import { hexKey } from './hex-key.js';
import { Lru } from './lru.js';

export interface TxLocation {
  readonly blockHash: Uint8Array;
  readonly index: number;
}

/** The number (item 8) of an encoded header, read as a view (no copy of the other fields). */
function headerNumber(bytes: Uint8Array): bigint {
  return bytesToBigInt(decodeRlpList(bytes)[8] as Uint8Array);
}

function copyInto(allocate: Allocate, bytes: Uint8Array): Uint8Array {
  const out = allocate(bytes.length);
  out.set(bytes);
  return out;
}

/**
 * Whether a header commits to an empty body (no transactions, no uncles), so the body needs no record of its own:
 * bulk-built empty blocks are stored without body and receipts records (`stageEmptyCanonicalBlock`), and readers
 * answer such a block's body and receipts from its header. A body record, where one exists (blocks stored before
 * that, or imported), is read as before.
 */
function commitsToEmptyBody(header: BlockHeaderBytes): boolean {
  return equalsBytes(header[4], KECCAK256_RLP) && equalsBytes(header[1], KECCAK256_RLP_ARRAY);
}

/** Bounds of the decoded-object caches, in entries. */
export type BlockStoreCacheLimits = Pick<CacheLimits, 'blocks' | 'headers' | 'receipts' | 'canonicalHashes'>;

export class BlockStore {
  /** Exposed for tests of the bounds. */
  readonly blocks: Lru<string, Block>;
  readonly headers: Lru<string, BlockHeader>;
  readonly receipts: Lru<string, TxReceipt[]>;
  readonly canonical: Lru<bigint, Uint8Array>;
  /** ECIP-1097 chains: latest checkpoint number per block hash (immutable, read for every block result). */
  private readonly lastCheckpoints: Lru<string, bigint>;
  /**
   * Transaction locations read (by tx hash), with their block's number: a transaction asked for again (traced again,
   * its receipt read) skips the database read and its decoding, ~3 % of a callTracer trace's samples. One is trusted
   * only while the height index cache holds its block at that height (a reorg moves transactions and empties that
   * cache: forgetCanonical); otherwise it is read again.
   */
  private readonly txLocations: Lru<string, { readonly location: TxLocation; readonly number: bigint }>;

  constructor(
    private readonly db: ChainDB,
    private readonly codec: BlockCodec,
    /** The shared Common for a height (receipt blooms hash with its keccak). */
    private readonly commonAt: (number: bigint) => Common,
    limits: BlockStoreCacheLimits = DEFAULT_CACHE_LIMITS,
  ) {
    this.blocks = new Lru(limits.blocks);
    this.headers = new Lru(limits.headers);
    this.receipts = new Lru(limits.receipts);
    this.canonical = new Lru(limits.canonicalHashes);
    this.lastCheckpoints = new Lru(limits.headers);
    this.txLocations = new Lru(limits.receipts * 8);
  }

  // ---- reads ----

  async getHeader(hash: Uint8Array): Promise<BlockHeader | undefined> {
    const key = hexKey(hash);
    const cached = this.blocks.get(key)?.header ?? this.headers.get(key);
    if (cached !== undefined) return cached;
    const bytes = await this.db.get(keys.header(hash));
    if (bytes === undefined) return undefined;
    const header = this.codec.header(RLP.decode(bytes) as unknown as BlockHeaderBytes);
    this.headers.set(key, header);
    return header;
  }

  async getBlock(hash: Uint8Array): Promise<Block | undefined> {
    const key = hexKey(hash);
    const cached = this.blocks.get(key);
    if (cached !== undefined) return cached;
    const [headerBytes, bodyBytes] = await Promise.all([this.db.get(keys.header(hash)), this.db.get(keys.body(hash))]);
    if (headerBytes === undefined) return undefined;
    const headerValues = RLP.decode(headerBytes) as unknown as BlockHeaderBytes;
    let txs: BlockBytes[1] = [];
    let uncles: BlockBytes[2] = [];
    if (bodyBytes !== undefined) [txs, uncles] = RLP.decode(bodyBytes) as unknown as [BlockBytes[1], BlockBytes[2]];
    else if (!commitsToEmptyBody(headerValues)) return undefined;
    const block = this.codec.block([headerValues, txs, uncles] as BlockBytes);
    this.blocks.set(key, block);
    return block;
  }

  async getReceipts(hash: Uint8Array): Promise<TxReceipt[] | undefined> {
    const key = hexKey(hash);
    const cached = this.receipts.get(key);
    if (cached !== undefined) return cached;
    const bytes = await this.db.get(keys.receipts(hash));
    if (bytes === undefined) {
      // No record: a block without transactions may be stored without one (its header says the list is empty).
      const header = await this.getHeader(hash);
      if (header === undefined || !equalsBytes(header.transactionsTrie, KECCAK256_RLP)) return undefined;
      const none: TxReceipt[] = [];
      this.receipts.set(key, none);
      return none;
    }
    const number = await this.getNumber(hash);
    const decoded = decodeStoredReceipts(bytes, number === undefined ? undefined : this.commonAt(number));
    this.receipts.set(key, decoded);
    return decoded;
  }

  async getNumber(hash: Uint8Array): Promise<bigint | undefined> {
    const cached = this.blocks.get(hexKey(hash));
    if (cached !== undefined) return cached.header.number;
    // Read on every import ("is this block stored?", nearly always not): in-thread, see ChainDB.getSync.
    const bytes = this.db.getSync(keys.number(hash));
    if (bytes !== undefined) return decodeNumber(bytes);
    // A bulk-built empty block has no number record: its header holds the number (`stageEmptyCanonicalBlock`).
    const header = this.db.getSync(keys.header(hash));
    return header === undefined ? undefined : headerNumber(header);
  }

  async getTotalDifficulty(hash: Uint8Array): Promise<bigint | undefined> {
    const bytes = await this.db.get(keys.totalDifficulty(hash));
    return bytes === undefined ? undefined : bytesToBigInt(bytes);
  }

  /** Number of the latest checkpoint block in the chain ending at `hash`; undefined when not recorded. */
  async getLastCheckpoint(hash: Uint8Array): Promise<bigint | undefined> {
    const key = hexKey(hash);
    const cached = this.lastCheckpoints.get(key);
    if (cached !== undefined) return cached;
    const bytes = await this.db.get(keys.lastCheckpoint(hash));
    if (bytes === undefined) return undefined;
    const value = bytesToBigInt(bytes);
    this.lastCheckpoints.set(key, value);
    return value;
  }

  async getCanonicalHash(number: bigint): Promise<Uint8Array | undefined> {
    const cached = this.canonical.get(number);
    if (cached !== undefined) return cached;
    const hash = await this.db.get(keys.canonical(number));
    if (hash !== undefined) this.canonical.set(number, hash);
    return hash;
  }

  /** The canonical hash at `number` when this store's cache holds it (no read); undefined otherwise. */
  canonicalHashNow(number: bigint): Uint8Array | undefined {
    return this.canonical.get(number);
  }

  async getTxLocation(txHash: Uint8Array): Promise<TxLocation | undefined> {
    // A small record read in this thread (ChainDB.getSync): the thread pool's round trip cost ~70–130 µs of CPU a
    // read on a busy machine against ~2 µs for LevelDB's own lookup, a tenth of a callTracer trace's whole time.
    const key = hexKey(txHash);
    const seen = this.txLocations.get(key);
    if (seen !== undefined) {
      const canonical = this.canonical.get(seen.number);
      if (canonical !== undefined && equalsBytes(canonical, seen.location.blockHash)) return seen.location;
    }
    const bytes = this.db.getSync(keys.txLookup(txHash));
    if (bytes === undefined) return undefined;
    const [blockHash, index] = RLP.decode(bytes) as Uint8Array[];
    const location = { blockHash, index: Number(bytesToBigInt(index)) };
    const number = this.blocks.get(hexKey(blockHash))?.header.number;
    if (number !== undefined) this.txLocations.set(key, { location, number });
    return location;
  }

  async getMeta(name: MetaName): Promise<Uint8Array | undefined> {
    return this.db.get(keys.meta(name));
  }

  /** The same read in this thread (see ChainDB.getSync): for a small record looked up on every head move. */
  getMetaSync(name: MetaName): Uint8Array | undefined {
    return this.db.getSync(keys.meta(name));
  }

  // ---- staged writes ----

  /** A block with its receipts and total difficulty; does not make it canonical. */
  /** Only the body of a block whose header is stored already (a snap sync's top blocks). */
  stageBody(batch: WriteBatch, block: Block): void {
    batch.put(
      keys.body(block.hash()),
      rlpList([encodeTransactionList(block.transactions), RLP.encode(block.uncleHeaders.map((u) => u.raw()))]),
    );
  }

  stageBlock(batch: WriteBatch, block: Block, receipts: readonly TxReceipt[], totalDifficulty: bigint): void {
    const hash = block.hash();
    batch
      .put(keys.header(hash), headerBytesOf(block.header))
      .put(
        keys.body(hash),
        rlpList([encodeTransactionList(block.transactions), RLP.encode(block.uncleHeaders.map((u) => u.raw()))]),
      )
      .put(keys.receipts(hash), encodeStoredReceipts(receipts))
      .put(keys.number(hash), encodeNumber(block.header.number))
      .put(keys.totalDifficulty(hash), bigIntToUnpaddedBytes(totalDifficulty));
  }

  /**
   * The records `stageBlock` + `stageCanonical` write for a block without transactions and uncles, from its header
   * encoding and hash computed once by the caller (a bulk run of empty blocks: Blockchain.extendHead), less the
   * body and receipts (the header commits to both being empty, and the reads answer them from it) and the number
   * record (`getNumber` reads the header's: one record fewer for each of a run's blocks). With `allocate`
   * (the chunk's arena, record-arena.ts) the keys and small values are made there.
   */
  stageEmptyCanonicalBlock(
    batch: WriteBatch,
    hash: Uint8Array,
    headerBytes: Uint8Array,
    number: bigint,
    totalDifficulty: bigint,
    allocate?: Allocate,
  ): void {
    batch
      .put(keys.header(hash, allocate), headerBytes)
      .put(keys.totalDifficulty(hash, allocate), unpaddedBytes(totalDifficulty, allocate))
      // The value a copy too where the caller allocates: the hash itself stays with the header and caches.
      .put(keys.canonical(number, allocate), allocate === undefined ? hash : copyInto(allocate, hash));
  }

  /** ECIP-1097 chains: the latest checkpoint number of the chain ending at `hash` (0 is not written: absent reads as 0). */
  stageLastCheckpoint(batch: WriteBatch, hash: Uint8Array, number: bigint): void {
    if (number > 0n) batch.put(keys.lastCheckpoint(hash), bigIntToUnpaddedBytes(number));
  }

  /** Records the ECIP-1097 activation block of a database created with checkpointing (see `keys.meta`). */
  stageCheckpointingMeta(batch: WriteBatch, activationBlock: bigint): void {
    batch.put(keys.meta('checkpointing'), bigIntToUnpaddedBytes(activationBlock));
  }

  /** Makes `block` the canonical block at its height and indexes its transactions. */
  stageCanonical(batch: WriteBatch, block: Block): void {
    const hash = block.hash();
    batch.put(keys.canonical(block.header.number), hash);
    block.transactions.forEach((tx, index) => {
      batch.put(keys.txLookup(tx.hash()), encodeRlp([hash, unpaddedNumberBytes(index)]));
    });
  }

  /** Removes a block that leaves the canonical chain: its height entry (if nothing replaces it) and tx index. */
  stageNonCanonical(batch: WriteBatch, block: Block, dropHeight: boolean): void {
    if (dropHeight) batch.del(keys.canonical(block.header.number));
    for (const tx of block.transactions) batch.del(keys.txLookup(tx.hash()));
  }

  stageHead(batch: WriteBatch, hash: Uint8Array): void {
    batch.put(keys.meta('head'), hash);
  }

  stageGenesisMeta(batch: WriteBatch, genesisHash: Uint8Array): void {
    batch.put(keys.meta('genesis'), genesisHash).put(keys.meta('version'), Uint8Array.of(SCHEMA_VERSION));
  }

  // ---- cache maintenance after a batch is written ----

  remember(block: Block, receipts?: TxReceipt[]): void {
    const key = hexKey(block.hash());
    this.blocks.set(key, block);
    if (receipts !== undefined) this.receipts.set(key, receipts);
  }

  noteCanonical(number: bigint, hash: Uint8Array): void {
    this.canonical.set(number, hash);
  }

  /** After a reorg or rewind the height index changed in ways cheaper to forget than to patch. */
  forgetCanonical(): void {
    this.canonical.clear();
  }
}

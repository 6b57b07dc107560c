/**
 * Engine-side shapes of event logs and log queries (no hex: bigint and Uint8Array), and the small
 * read interface the log code needs from the chain (`LogSource`). `chain-source.ts` implements it
 * over the `Blockchain`; tests implement it over synthetic blocks.
 */

/** A log as a receipt stores it. */
export interface ReceiptLog {
  readonly address: Uint8Array;
  readonly topics: readonly Uint8Array[];
  readonly data: Uint8Array;
}

/** What the log code reads from a receipt: only its logs (TxReceipt satisfies it). */
export interface ReceiptWithLogs {
  readonly logs: readonly ReceiptLog[];
}

/** A log with its position on the chain, as eth_getLogs / filters / subscriptions report it. */
export interface Log extends ReceiptLog {
  readonly blockNumber: bigint;
  readonly blockHash: Uint8Array;
  /** The block's timestamp (execution-apis `blockTimestamp`): an indexer needs no block read per log for it. */
  readonly blockTimestamp: bigint;
  readonly transactionHash: Uint8Array;
  /** Index of the transaction in its block. */
  readonly transactionIndex: number;
  /** Index of the log among all logs of its block (not of its transaction). */
  readonly logIndex: number;
  /** True when a reorganisation took the log's block off the canonical chain. */
  readonly removed: boolean;
}

/**
 * One topic position: `null` (or an empty array) matches anything, a topic matches itself, an array
 * matches any of its topics.
 */
export type TopicCriterion = null | Uint8Array | readonly Uint8Array[];

/** What a log must look like, independent of where on the chain it is looked for. */
export interface LogCriteria {
  /** Any of these emitters; undefined or empty = any address. */
  readonly addresses?: readonly Uint8Array[];
  /** Positional topic criteria; a log must have at least as many topics as this array is long. */
  readonly topics?: readonly TopicCriterion[];
}

/** eth_getLogs on a canonical range; tags are resolved by the caller (`toBlock` beyond the head means the head). */
export interface RangeLogQuery extends LogCriteria {
  readonly fromBlock: bigint;
  readonly toBlock: bigint;
}

/** eth_getLogs on one block by hash (EIP-234), canonical or not. */
export interface BlockHashLogQuery extends LogCriteria {
  readonly blockHash: Uint8Array;
}

export type LogQuery = RangeLogQuery | BlockHashLogQuery;

/** A stored block as the log code sees it. */
export interface LogBlockHeader {
  readonly hash: Uint8Array;
  readonly number: bigint;
  readonly parentHash: Uint8Array;
  readonly timestamp: bigint;
  /** The block's logs bloom (union of its receipts' blooms). */
  readonly logsBloom: Uint8Array;
}

/** A stored block's receipts with the hashes of the transactions they belong to (same order). */
export interface BlockReceipts {
  readonly header: LogBlockHeader;
  readonly transactionHashes: readonly Uint8Array[];
  readonly receipts: readonly ReceiptWithLogs[];
}

/**
 * What log queries and filters read from the chain. Reads by hash see any stored block (canonical or
 * not) and never change; `canonicalHash` and `headNumber` follow the canonical chain.
 */
export interface LogSource {
  /** Height of the canonical head. */
  headNumber(): bigint;
  /** Hash of the canonical block at `number`, undefined above the head. */
  canonicalHash(number: bigint): Promise<Uint8Array | undefined>;
  /**
   * `canonicalHash` when it is known without a read (a cache); undefined when it is not (or above the head). Without
   * it, every query waits for `canonicalHash`.
   */
  canonicalHashNow?(number: bigint): Uint8Array | undefined;
  /** Header fields of a stored block, undefined if unknown. */
  header(hash: Uint8Array): Promise<LogBlockHeader | undefined>;
  /** Receipts of a stored block, undefined if unknown. */
  blockReceipts(hash: Uint8Array): Promise<BlockReceipts | undefined>;
}

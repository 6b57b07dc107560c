/** Typed errors of log queries; the JSON-RPC layer maps them to codes (LimitExceededError → -32602). */

const hex = (n: bigint): string => `0x${n.toString(16)}`;

/** A query would cost the node more than its configured limits allow. The message says how to page. */
export class LimitExceededError extends Error {
  private constructor(
    /** Which limit: the width of the block range, or the number of results. */
    readonly limitKind: 'blockRange' | 'results',
    readonly limit: number,
    /** A block range that fits the limit, starting where the query started (absent when none helps). */
    readonly suggestion: { readonly fromBlock: bigint; readonly toBlock: bigint } | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'LimitExceededError';
  }

  static blockRange(limit: number, fromBlock: bigint, toBlock: bigint): LimitExceededError {
    const fitsTo = fromBlock + BigInt(limit) - 1n;
    return new LimitExceededError(
      'blockRange',
      limit,
      { fromBlock, toBlock: fitsTo },
      `block range ${hex(fromBlock)}..${hex(toBlock)} spans ${toBlock - fromBlock + 1n} blocks, more than the limit of ${limit}; ` +
        `query at most ${limit} blocks at a time, e.g. ${hex(fromBlock)}..${hex(fitsTo)}`,
    );
  }

  /**
   * More than `limit` logs matched. `lastCompleteBlock` is the highest block whose logs all fit, if any;
   * otherwise a single block alone has too many matches and only sharper criteria help.
   */
  static results(
    limit: number,
    fromBlock: bigint,
    lastCompleteBlock: bigint | undefined,
    overflowBlock: bigint,
  ): LimitExceededError {
    if (lastCompleteBlock === undefined) {
      return new LimitExceededError(
        'results',
        limit,
        undefined,
        `query returned more than ${limit} results; block ${hex(overflowBlock)} alone has more than ${limit} matching logs, ` +
          `narrow the filter with an address or topics`,
      );
    }
    return new LimitExceededError(
      'results',
      limit,
      { fromBlock, toBlock: lastCompleteBlock },
      `query returned more than ${limit} results; narrow the block range, e.g. ${hex(fromBlock)}..${hex(lastCompleteBlock)}`,
    );
  }
}

/** An EIP-234 query named a block hash the node does not have. */
export class UnknownBlockError extends Error {
  constructor(readonly blockHash: Uint8Array) {
    super(`unknown block 0x${Buffer.from(blockHash).toString('hex')}`);
    this.name = 'UnknownBlockError';
  }
}

/**
 * A range reaches into blocks whose receipts are not stored yet (a snap-synced node still backfilling the history
 * below its pivot): their logs are unknown, not absent, so the query is refused. The message names the first one.
 */
export class HistoryNotHeldError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HistoryNotHeldError';
  }
}

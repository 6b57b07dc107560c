/** Typed errors of the filter manager; the JSON-RPC layer chooses their codes. */

const hex = (n: bigint): string => `0x${n.toString(16)}`;

/** The id names no installed filter (never installed, uninstalled, expired or overflowed). */
export class FilterNotFoundError extends Error {
  constructor(readonly id: bigint) {
    super('filter not found');
    this.name = 'FilterNotFoundError';
  }
}

/** The node already holds the configured number of filters. */
export class FilterLimitError extends Error {
  constructor(readonly limit: number) {
    super(`too many filters: the node holds at most ${limit}; uninstall filters you no longer poll (idle ones expire)`);
    this.name = 'FilterLimitError';
  }
}

/**
 * More changes waited for a filter than its buffer holds. Rather than drop changes silently the
 * filter is removed; the client re-creates it and recovers the gap with a log query from `fromBlock`.
 */
export class FilterOverflowError extends Error {
  constructor(
    readonly id: bigint,
    readonly limit: number,
    /** First block whose changes were not kept (absent for pending-transaction filters). */
    readonly fromBlock: bigint | undefined,
  ) {
    super(
      `filter ${hex(id)} was removed: more than ${limit} changes waited since the last poll; ` +
        (fromBlock === undefined
          ? 'poll more often and install a new filter'
          : `install a new filter and fetch the missed logs with eth_getLogs from block ${hex(fromBlock)}, or poll more often`),
    );
    this.name = 'FilterOverflowError';
  }
}

/**
 * What one polled filter accumulates between polls, bounded. Past the bound it stops collecting and
 * remembers the oldest block it could not deliver, so the filter can fail loudly instead of
 * silently losing changes.
 *
 * Items arrive in chunks: a block's matching logs are one array shared by every filter with the same
 * criteria, kept by reference and only copied out when the filter is polled (most filters are polled
 * far less often than blocks arrive, and some never again).
 */
export class PolledBuffer<T> {
  private chunks: (readonly T[])[] = [];
  private count = 0;
  /** Lowest block number among the undelivered items (undefined for items without a block). */
  private oldestBlock: bigint | undefined;
  private overflowFrom: { readonly block: bigint | undefined } | undefined;

  constructor(private readonly limit: number) {}

  get overflowed(): { readonly block: bigint | undefined } | undefined {
    return this.overflowFrom;
  }

  push(item: T, block?: bigint): void {
    this.pushShared([item], block);
  }

  /** Appends `items` by reference: the caller must never modify the array afterwards. */
  pushShared(items: readonly T[], block?: bigint): void {
    if (this.overflowFrom !== undefined || items.length === 0) return;
    if (block !== undefined && (this.oldestBlock === undefined || block < this.oldestBlock)) this.oldestBlock = block;
    if (this.count + items.length > this.limit) {
      this.overflowFrom = { block: this.oldestBlock };
      this.chunks = [];
      this.count = 0;
      return;
    }
    this.chunks.push(items);
    this.count += items.length;
  }

  /** Everything collected since the last drain, oldest first (a new array the caller owns). */
  drain(): T[] {
    const out: T[] = [];
    for (const chunk of this.chunks) for (const item of chunk) out.push(item);
    this.chunks = [];
    this.count = 0;
    this.oldestBlock = undefined;
    return out;
  }
}

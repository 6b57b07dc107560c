/**
 * What one polled filter accumulates between polls, bounded. Past the bound it stops collecting and
 * remembers the oldest block it could not deliver, so the filter can fail loudly instead of
 * silently losing changes.
 */
export class PolledBuffer<T> {
  private items: T[] = [];
  /** Lowest block number among the undelivered items (undefined for items without a block). */
  private oldestBlock: bigint | undefined;
  private overflowFrom: { readonly block: bigint | undefined } | undefined;

  constructor(private readonly limit: number) {}

  get overflowed(): { readonly block: bigint | undefined } | undefined {
    return this.overflowFrom;
  }

  push(item: T, block?: bigint): void {
    if (this.overflowFrom !== undefined) return;
    if (block !== undefined && (this.oldestBlock === undefined || block < this.oldestBlock)) this.oldestBlock = block;
    if (this.items.length >= this.limit) {
      this.overflowFrom = { block: this.oldestBlock };
      this.items = [];
      return;
    }
    this.items.push(item);
  }

  /** Everything collected since the last drain, oldest first. */
  drain(): T[] {
    const out = this.items;
    this.items = [];
    this.oldestBlock = undefined;
    return out;
  }
}

/**
 * The snap sync's memory ceiling (settings: sync.max-rss): what the process holds grows with the answers in
 * flight and waiting to be checked and written, so near the ceiling fewer requests go out at once, and over
 * it one at a time, until the resident set falls again.
 */

/** Resident set sampled at most this often (reading it costs a system call). */
const SAMPLE_MS = 200;
/** Shares of the ceiling at which requests are cut to one per peer, then to one in all. */
const HIGH = 0.8;
const FULL = 0.95;

export const DEFAULT_MAX_RSS_MIB = 1536;

export class MemoryGuard {
  #sampledAt = Number.NEGATIVE_INFINITY;
  #rss = 0;
  constructor(
    readonly ceilingBytes: number,
    private readonly readRss: () => number = () => process.memoryUsage.rss(),
  ) {}

  rssBytes(): number {
    const now = performance.now();
    if (now - this.#sampledAt >= SAMPLE_MS) {
      this.#rss = this.readRss();
      this.#sampledAt = now;
    }
    return this.#rss;
  }

  /** Requests allowed in flight at once across all peers; undefined = no cap from memory. */
  requestCap(peers: number): number | undefined {
    const share = this.rssBytes() / this.ceilingBytes;
    if (share < HIGH) return undefined;
    return share < FULL ? Math.max(1, peers) : 1;
  }
}

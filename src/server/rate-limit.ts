/**
 * Per-client-IP rate limit: one request per `minRequestIntervalMs`. A batch counts as one request. A rejected
 * request does not extend the wait (unlike the original product, where polling too fast locked a client out
 * for good), so the back-off hint is exact. The table of last-seen times is an LRU of `cacheSize` IPs.
 */
import type { RateLimitConfig } from '../node/config.js';

export interface RateLimitDecision {
  readonly allowed: boolean;
  /** Whole seconds until the client may try again (≥ 1), when refused. */
  readonly backoffSeconds: number;
}

const allowed: RateLimitDecision = { allowed: true, backoffSeconds: 0 };

export class RateLimiter {
  readonly #interval: number;
  readonly #capacity: number;
  /** IP → time of its last allowed request. Map iteration order = least recently used first. */
  readonly #lastAllowed = new Map<string, number>();

  constructor(
    config: Pick<RateLimitConfig, 'minRequestIntervalMs' | 'latestTimestampCacheSize'>,
    private readonly now = Date.now,
  ) {
    this.#interval = config.minRequestIntervalMs;
    this.#capacity = Math.max(1, config.latestTimestampCacheSize);
  }

  check(ip: string): RateLimitDecision {
    const now = this.now();
    const last = this.#lastAllowed.get(ip);
    if (last !== undefined) {
      const wait = last + this.#interval - now;
      if (wait > 0) return { allowed: false, backoffSeconds: Math.max(1, Math.ceil(wait / 1000)) };
      this.#lastAllowed.delete(ip);
    }
    this.#lastAllowed.set(ip, now);
    if (this.#lastAllowed.size > this.#capacity) {
      this.#lastAllowed.delete(this.#lastAllowed.keys().next().value!);
    }
    return allowed;
  }

  get size(): number {
    return this.#lastAllowed.size;
  }
}

/** The client IP: the first `X-Forwarded-For` hop when a proxy set it (as the original product does), else the socket peer. */
export function clientIp(forwardedFor: string | string[] | undefined, remoteAddress: string | undefined): string {
  const header = Array.isArray(forwardedFor) ? forwardedFor[0] : forwardedFor;
  if (header) {
    const comma = header.indexOf(',');
    const first = (comma === -1 ? header : header.slice(0, comma)).trim();
    if (first) return first;
  }
  return remoteAddress ?? 'unknown';
}

/**
 * How a fork treats its upstream: at most `concurrency` requests open at once, at most `perSecond` started per
 * second, and a failed attempt retried after an exponential backoff (100 ms, 200 ms, …), so a public node's rate
 * limit or a blip does not fail a read, and a burst of cold reads (a contract touching many slots) does not flood it.
 */
export interface LimiterOptions {
  readonly concurrency: number;
  readonly perSecond: number;
  readonly retries: number;
}

/** A failure worth another attempt (the network, a timeout, HTTP 429/5xx, a rate-limit answer). */
export class TransientError extends Error {}

const BACKOFF_START_MS = 100;

export class RequestLimiter {
  private open = 0;
  private readonly waiting: Array<() => void> = [];
  /** When the next request may start (the rate limit spaces starts evenly). */
  private nextStart = 0;

  constructor(private readonly opts: LimiterOptions) {}

  /** Runs `attempt` within the limits, again after a backoff while it throws `TransientError`. */
  async run<T>(attempt: () => Promise<T>): Promise<T> {
    for (let tries = 0; ; tries++) {
      try {
        return await this.limited(attempt);
      } catch (err) {
        if (!(err instanceof TransientError) || tries >= this.opts.retries) throw err;
        await sleep(BACKOFF_START_MS * 2 ** tries);
      }
    }
  }

  private async limited<T>(attempt: () => Promise<T>): Promise<T> {
    // A freed slot passes straight to the first waiter, so a newcomer cannot take it in between.
    if (this.open < this.opts.concurrency) this.open++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      const now = Date.now();
      const startAt = Math.max(now, this.nextStart);
      this.nextStart = startAt + 1000 / this.opts.perSecond;
      if (startAt > now) await sleep(startAt - now);
      return await attempt();
    } finally {
      const next = this.waiting.shift();
      if (next !== undefined) next();
      else this.open--;
    }
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * How much a peer is worth keeping: 100 for a peer that answers every request quickly, less for each timeout,
 * bad answer (invalid data) or useless one (empty where it claimed to have data), and for a slow average.
 * The manager drops the lowest-scored peer when full and a new one wants in; sync asks the best peers first.
 * Penalties fade as the peer answers well again, so one slow moment is not held against it for ever.
 */
const START = 100;
const TIMEOUT_PENALTY = 15;
const BAD_PENALTY = 40;
const USELESS_PENALTY = 5;
/** Each good answer gives back this much of what was lost. */
const RECOVERY = 2;
/** Latency above this (ms, smoothed) costs a point per further this many ms, up to 30 points. */
const LATENCY_FREE_MS = 500;

export class PeerScore {
  #penalty = 0;
  #latencyMs: number | null = null;
  timeouts = 0;
  badAnswers = 0;
  uselessAnswers = 0;

  answered(latencyMs: number): void {
    this.#latencyMs = this.#latencyMs === null ? latencyMs : this.#latencyMs * 0.8 + latencyMs * 0.2;
    this.#penalty = Math.max(0, this.#penalty - RECOVERY);
  }

  timedOut(): void {
    this.timeouts++;
    this.#penalty += TIMEOUT_PENALTY;
  }

  bad(): void {
    this.badAnswers++;
    this.#penalty += BAD_PENALTY;
  }

  useless(): void {
    this.uselessAnswers++;
    this.#penalty += USELESS_PENALTY;
  }

  /** Smoothed answer time in ms; null before the first answer. */
  get latencyMs(): number | null {
    return this.#latencyMs === null ? null : Math.round(this.#latencyMs);
  }

  /** 0–100. */
  get value(): number {
    const slow = this.#latencyMs === null ? 0 : Math.min(30, Math.max(0, (this.#latencyMs - LATENCY_FREE_MS) / 100));
    return Math.max(0, Math.round(START - this.#penalty - slow));
  }
}

/** A new peer starts at full score; one below this has timed out or misbehaved and may give its place up. */
export const EVICTABLE_BELOW = 90;

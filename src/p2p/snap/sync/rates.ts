/**
 * How much to ask each peer, and how long to wait for it, after geth's msgrate tracker: every answer measures the
 * peer's throughput (bytes per ms) and round trip for that kind of request; the next request asks for what the
 * peer delivers within a target time, and its timeout follows the measured round trip (bounded). A timeout halves
 * the peer's request size and the number of requests it gets at once; answers in time grow them again. A peer
 * that only times out rests for a while (longer each time) while others have work, instead of costing a full
 * timeout per try.
 *
 * Why: a fixed 512 KiB request timed out for minutes at busy servers (every answer arriving after 15 s, when it
 * was asked again elsewhere), while a quiet server could have taken more at once.
 */

export type RequestKind = 'accounts' | 'storage' | 'codes' | 'trie' | 'other';

/** What one request may ask for, and where its fetch records the answer for the measurement. */
export interface Ticket {
  /** The byte limit to put in the request. */
  readonly bytes: number;
  /** How long to wait for the answer. */
  readonly timeoutMs: number;
  /** Set by the fetch once the peer answered (before checking it): when, and how many bytes came. */
  answered?: { readonly at: number; readonly bytes: number };
}

/** The time an answer should take: sizes are chosen so that the peer delivers them within it. */
export const TARGET_ANSWER_MS = 1_500;
/** Bounds of a request's byte limit (the serving side caps answers at 2 MiB anyway). */
export const MIN_REQUEST_BYTES = 64 * 1024;
export const MAX_REQUEST_BYTES = 2 * 1024 * 1024;
/**
 * The first request to a peer, before anything is measured: the smallest, as geth starts a peer at one item, so
 * that it comes back within the timeout from a cold, busy peer (512 and 256 KiB took longer than 15 s at freshly
 * started, loaded servers: 20-30 s lost); the first quick answers grow it.
 */
export const INITIAL_REQUEST_BYTES = MIN_REQUEST_BYTES;
/**
 * Storage requests grow no further: 64 accounts a request rarely fill more, and a big storage trie then comes in
 * pieces of a known most.
 */
export const MAX_STORAGE_REQUEST_BYTES = 512 * 1024;
const MAX_BYTES: Partial<Record<RequestKind, number>> = { storage: MAX_STORAGE_REQUEST_BYTES };
/** Timeout = this × the measured round trip, within [MIN_TIMEOUT_MS, MAX_TIMEOUT_MS]. */
const TIMEOUT_PER_RTT = 3;
export const MIN_TIMEOUT_MS = 4_000;
export const MAX_TIMEOUT_MS = 15_000;
/** Requests in flight to one peer: start, bounds. The serving side answers 2 at a time and queues the rest. */
const INITIAL_WINDOW = 3;
const MAX_WINDOW = 6;
/** Weight of a new measurement in the running estimates (geth: 0.1; more here, as local peers change fast). */
const IMPACT = 0.25;
/** Consecutive timeouts after which a peer rests, and the first rest (doubled on each further timeout). */
const TIMEOUTS_BEFORE_REST = 2;
const FIRST_REST_MS = 5_000;
const MAX_REST_MS = 60_000;

interface KindRate {
  /** Bytes per ms of one request (queueing at the peer included, so it falls as more are in flight). */
  throughput: number | undefined;
  /** Round trip in ms. */
  rtt: number | undefined;
  bytes: number;
}

export class PeerRate {
  readonly #kinds = new Map<RequestKind, KindRate>();
  /** Requests this peer may have in flight (fractional: grows by a quarter per answer in time). */
  #window = INITIAL_WINDOW;
  #timeoutsInARow = 0;
  #restUntil = 0;
  inFlight = 0;

  get window(): number {
    return Math.floor(this.#window);
  }

  /** Whether the peer timed out repeatedly and should be left alone while others can take the work. */
  resting(now = performance.now()): boolean {
    return now < this.#restUntil;
  }

  ticket(kind: RequestKind): Ticket {
    const k = this.kind(kind);
    const timeoutMs =
      k.rtt === undefined ? MAX_TIMEOUT_MS : clamp(TIMEOUT_PER_RTT * k.rtt, MIN_TIMEOUT_MS, MAX_TIMEOUT_MS);
    return { bytes: k.bytes, timeoutMs: Math.round(timeoutMs) };
  }

  /** An answer arrived `elapsedMs` after the request, with `bytes` of `asked`. */
  answered(kind: RequestKind, asked: number, bytes: number, elapsedMs: number): void {
    const k = this.kind(kind);
    const ms = Math.max(1, elapsedMs);
    this.#timeoutsInARow = 0;
    k.rtt = k.rtt === undefined ? ms : k.rtt + IMPACT * (ms - k.rtt);
    // An answer well under what was asked (the end of a range) says little about the peer's throughput.
    if (bytes >= asked / 4) {
      const measured = bytes / ms;
      k.throughput = k.throughput === undefined ? measured : k.throughput + IMPACT * (measured - k.throughput);
      const max = MAX_BYTES[kind] ?? MAX_REQUEST_BYTES;
      k.bytes = Math.round(clamp(k.throughput * TARGET_ANSWER_MS, MIN_REQUEST_BYTES, max));
    }
    if (ms <= TARGET_ANSWER_MS) this.#window = Math.min(MAX_WINDOW, this.#window + 0.25);
    else if (ms > 2 * TARGET_ANSWER_MS) this.#window = Math.max(1, this.#window - 0.5);
  }

  timedOut(kind: RequestKind): void {
    const k = this.kind(kind);
    k.bytes = Math.max(MIN_REQUEST_BYTES, Math.round(k.bytes / 2));
    if (k.throughput !== undefined) k.throughput /= 2;
    // The round trip was at least the timeout: later timeouts wait longer (up to the bound).
    k.rtt = Math.max(k.rtt ?? 0, this.ticket(kind).timeoutMs);
    this.#window = Math.max(1, this.#window / 2);
    this.#timeoutsInARow++;
    if (this.#timeoutsInARow >= TIMEOUTS_BEFORE_REST) {
      const rest = Math.min(MAX_REST_MS, FIRST_REST_MS * 2 ** (this.#timeoutsInARow - TIMEOUTS_BEFORE_REST));
      this.#restUntil = performance.now() + rest;
    }
  }

  /** The estimates for the progress line and tests. */
  estimate(kind: RequestKind): { bytes: number; rttMs: number | undefined; window: number } {
    const k = this.kind(kind);
    return { bytes: k.bytes, rttMs: k.rtt === undefined ? undefined : Math.round(k.rtt), window: this.window };
  }

  private kind(kind: RequestKind): KindRate {
    let k = this.#kinds.get(kind);
    if (k === undefined)
      this.#kinds.set(kind, (k = { throughput: undefined, rtt: undefined, bytes: INITIAL_REQUEST_BYTES }));
    return k;
  }
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * Progress lines for long work (a sync catch-up, an Ethash cache build): one line every `intervalMs` while the
 * work runs, whatever the work's own pace, with how far it is (done / total, percent), how fast it went over
 * the last interval and when it should end at the pace so far. The work only calls `update`, as often as it
 * likes; nothing is logged from there, so a tight loop pays one assignment.
 *
 * Knows nothing of the node's logger: any `{ info(msg, fields) }` will do.
 */

export interface ProgressLogger {
  info(msg: string, fields?: Record<string, unknown>): void;
}

export interface ProgressLogOptions {
  readonly log: ProgressLogger;
  /** The line's message, e.g. "sync progress". */
  readonly message: string;
  /** How much work there is, in `unit`s (blocks, items); updatable with `update(done, total)`. */
  readonly total: number;
  /** Plural unit name for the rate field: `<unit>PerSecond` (default "items"). */
  readonly unit?: string;
  /** Default 5 s. */
  readonly intervalMs?: number;
  /** Extra fields on every line (the peer, the epoch). */
  readonly fields?: () => Record<string, unknown>;
  /** Millisecond clock (default Date.now); tests inject one. */
  readonly now?: () => number;
}

export interface ProgressSnapshot {
  readonly done: number;
  readonly total: number;
  readonly percent: number;
  /** Units per second over the last interval. */
  readonly rate: number;
  /**
   * Units per second since the start, or since `markPaceStart` when the work called it: the pace the ETA assumes.
   */
  readonly pace: number;
  /** Seconds left at that pace; undefined before any progress. */
  readonly etaSeconds: number | undefined;
}

export class ProgressLog {
  readonly #options: ProgressLogOptions;
  readonly #now: () => number;
  readonly #startedAt: number;
  #timer: NodeJS.Timeout | undefined;
  #done = 0;
  #total: number;
  #lastAt: number;
  #lastDone = 0;
  /** Where the steady pace starts (markPaceStart); the start until then. */
  #paceAt: number;
  #paceDone = 0;
  #paceMarked = false;

  constructor(options: ProgressLogOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#startedAt = this.#lastAt = this.#paceAt = this.#now();
    this.#total = options.total;
  }

  /** Starts the periodic lines (the timer does not keep the process alive). */
  start(): this {
    this.#timer ??= setInterval(() => this.tick(), this.#options.intervalMs ?? 5_000);
    this.#timer.unref();
    return this;
  }

  update(done: number, total?: number): void {
    this.#done = done;
    if (total !== undefined) this.#total = total;
  }

  /**
   * The work's steady pace starts now: what came before (an import waiting for its first Ethash cache, ~30 s of
   * a 6 min "ETA" on the first line, issue 44) does not predict the rest, so the ETA counts only what follows.
   * Lines then also show that pace, as `steady<Unit>PerSecond`.
   */
  markPaceStart(): void {
    this.#paceAt = this.#now();
    this.#paceDone = this.#done;
    this.#paceMarked = true;
  }

  /** The state now, as a line would show it; advances the rate window (what the timer calls). */
  tick(): ProgressSnapshot {
    const snapshot = this.snapshot();
    this.#lastAt = this.#now();
    this.#lastDone = this.#done;
    const { unit = 'items' } = this.#options;
    this.#options.log.info(this.#options.message, {
      ...this.#options.fields?.(),
      done: snapshot.done,
      total: snapshot.total,
      percent: snapshot.percent,
      [`${unit}PerSecond`]: round1(snapshot.rate),
      ...(this.#paceMarked
        ? { [`steady${unit[0]!.toUpperCase()}${unit.slice(1)}PerSecond`]: round1(snapshot.pace) }
        : {}),
      eta: snapshot.etaSeconds === undefined ? 'unknown' : formatDuration(snapshot.etaSeconds),
    });
    return snapshot;
  }

  snapshot(): ProgressSnapshot {
    const now = this.#now();
    const done = this.#done;
    const total = this.#total;
    const window = (now - this.#lastAt) / 1000;
    const paceSeconds = (now - this.#paceAt) / 1000;
    const pace = paceSeconds > 0 ? (done - this.#paceDone) / paceSeconds : 0;
    return {
      done,
      total,
      percent: total > 0 ? Math.min(100, Math.floor((done / total) * 1000) / 10) : 100,
      rate: window > 0 ? (done - this.#lastDone) / window : 0,
      pace,
      etaSeconds: pace > 0 ? Math.max(0, (total - done) / pace) : undefined,
    };
  }

  /** Stops the lines; the caller logs its own closing line. Idempotent. */
  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Seconds since the work started. */
  get elapsedSeconds(): number {
    return (this.#now() - this.#startedAt) / 1000;
  }
}

const round1 = (n: number): number => Math.round(n * 10) / 10;

/** 3 → "3s", 75 → "1m15s", 7322 → "2h02m". */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

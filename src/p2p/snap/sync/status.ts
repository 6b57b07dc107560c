/**
 * What a snap sync shows: its status (eth_syncing's extra fields, the syncing subscription, /healthcheck) and
 * a progress line every few seconds with phase, counts, rate and an ETA. The ETA of the account phase comes from
 * the share of the account-hash space already covered, which grows evenly because hashes are uniform.
 */
import { bytesToBigInt } from '@ethereumjs/util';
import type { SnapSyncStatus } from '../../types.js';
import type { SnapRecord } from './record.js';

export type SnapStatus = SnapSyncStatus;
/** At most one status event per this many ms while the counts change (a phase change goes out at once). */
const STATUS_EVERY_MS = 1_000;

const SPACE = 1n << 256n;

export class SnapProgressView {
  #record: SnapRecord | undefined;
  #pending = 0;
  #timer: NodeJS.Timeout | undefined;
  #last = { at: 0, accounts: 0, slots: 0 };
  #startedAt = 0;
  #startShare = 0;

  constructor(
    private readonly log: { info(msg: string, f?: Record<string, unknown>): void },
    private readonly intervalMs = 5_000,
    private readonly onStatus?: (status: SnapStatus | null) => void,
  ) {}

  start(record: SnapRecord): void {
    this.#record = record;
    this.#startedAt = Date.now();
    this.#startShare = coveredShare(record);
    this.#last = { at: this.#startedAt, accounts: record.counters.accounts, slots: record.counters.slots };
    this.#timer = setInterval(() => this.logLine(), this.intervalMs);
    this.#timer.unref();
    this.update(record);
  }

  #sentAt = 0;
  #sentPhase = '';

  update(record: SnapRecord): void {
    this.#record = record;
    const now = Date.now();
    if (record.phase === this.#sentPhase && now - this.#sentAt < STATUS_EVERY_MS) return;
    this.#sentAt = now;
    this.#sentPhase = record.phase;
    this.onStatus?.(this.status());
  }

  setPending(n: number): void {
    this.#pending = n;
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.#record !== undefined) this.onStatus?.(null);
    this.#record = undefined;
  }

  status(): SnapStatus | null {
    const r = this.#record;
    if (r === undefined) return null;
    return {
      phase: r.phase,
      pivot: r.pivot.number,
      headers: r.headerTip.number,
      accounts: r.counters.accounts,
      slots: r.counters.slots,
      codes: r.counters.codes,
      healedNodes: r.counters.healed,
      pendingHealNodes: this.#pending,
    };
  }

  /** The counts as log fields. */
  fields(): Record<string, unknown> {
    const s = this.status();
    if (s === null) return {};
    return {
      phase: s.phase,
      pivot: s.pivot.toString(),
      headers: s.headers.toString(),
      accounts: s.accounts,
      slots: s.slots,
      codes: s.codes,
      healed: s.healedNodes,
      pendingHeal: s.pendingHealNodes,
    };
  }

  private logLine(): void {
    const r = this.#record;
    if (r === undefined) return;
    const now = Date.now();
    const seconds = Math.max(0.001, (now - this.#last.at) / 1000);
    const accountsPerSecond = Math.round((r.counters.accounts - this.#last.accounts) / seconds);
    const slotsPerSecond = Math.round((r.counters.slots - this.#last.slots) / seconds);
    this.#last = { at: now, accounts: r.counters.accounts, slots: r.counters.slots };
    const share = coveredShare(r);
    const gained = share - this.#startShare;
    const elapsed = (now - this.#startedAt) / 1000;
    const etaSeconds = r.phase === 'accounts' && gained > 0 ? Math.round((elapsed * (1 - share)) / gained) : undefined;
    this.log.info('snap sync progress', {
      ...this.fields(),
      accountSpacePercent: Math.round(share * 1000) / 10,
      accountsPerSecond,
      slotsPerSecond,
      ...(etaSeconds !== undefined ? { etaSeconds } : {}),
    });
  }
}

/** Share (0–1) of the account-hash space whose ranges are stored. */
function coveredShare(r: SnapRecord): number {
  if (r.phase === 'healing') return 1;
  if (r.phase === 'headers') return 0;
  let left = 0n;
  for (const c of r.chunks) left += bytesToBigInt(c.last) - bytesToBigInt(c.next) + 1n;
  return 1 - Number((left * 1_000_000n) / SPACE) / 1_000_000;
}

/**
 * What a snap sync shows: its status (eth_syncing's extra fields, the syncing subscription, /healthcheck) and
 * a progress line every few seconds with the phase, counts, the phase's rate and an ETA. Both read the same
 * record, and a change of phase goes out at once, so eth_syncing never shows a phase the sync has left.
 * ETAs: headers from the headers left to the pivot; accounts from the share of the account-hash space already
 * covered, which grows evenly because hashes are uniform; healing from the nodes fetched and not yet written
 * (a floor: their children are not known yet).
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
  /** Where the last progress line left the counts, and where the current phase began. */
  #last = { at: 0, accounts: 0, slots: 0, headers: 0n, healed: 0 };
  #phase = { name: '', at: 0, share: 0, headers: 0n };
  #sentPhase = '';
  #sentAt = 0;
  #trailing: NodeJS.Timeout | undefined;
  /** Extra fields for the progress line (request sizes, timeouts, memory). */
  #extra: () => Record<string, unknown> = () => ({});

  constructor(
    private readonly log: { info(msg: string, f?: Record<string, unknown>): void },
    private readonly intervalMs = 5_000,
    private readonly onStatus?: (status: SnapStatus | null) => void,
  ) {}

  start(record: SnapRecord, extra?: () => Record<string, unknown>): void {
    this.#record = record;
    if (extra !== undefined) this.#extra = extra;
    const c = record.counters;
    this.#last = { at: Date.now(), accounts: c.accounts, slots: c.slots, headers: record.headerTip.number, healed: 0 };
    this.#timer = setInterval(() => this.logLine(), this.intervalMs);
    this.#timer.unref();
    this.update(record);
  }

  /** The record changed: a new phase goes out at once, counts at most once a second (the last change too). */
  update(record: SnapRecord): void {
    this.#record = record;
    if (record.phase !== this.#phase.name) {
      this.#phase = {
        name: record.phase,
        at: Date.now(),
        share: coveredShare(record),
        headers: record.headerTip.number,
      };
    }
    const now = Date.now();
    if (record.phase === this.#sentPhase && now - this.#sentAt < STATUS_EVERY_MS) {
      this.#trailing ??= setTimeout(
        () => {
          this.#trailing = undefined;
          if (this.#record !== undefined) this.send(Date.now());
        },
        STATUS_EVERY_MS - (now - this.#sentAt),
      );
      this.#trailing.unref();
      return;
    }
    this.send(now);
  }

  private send(now: number): void {
    this.#sentAt = now;
    this.#sentPhase = this.#record!.phase;
    this.onStatus?.(this.status());
  }

  setPending(n: number): void {
    this.#pending = n;
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    if (this.#trailing !== undefined) clearTimeout(this.#trailing);
    this.#timer = this.#trailing = undefined;
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
    const per = (n: number | bigint) => Math.round(Number(n) / seconds);
    const c = r.counters;
    const rates = {
      headersPerSecond: per(r.headerTip.number - this.#last.headers),
      accountsPerSecond: per(c.accounts - this.#last.accounts),
      slotsPerSecond: per(c.slots - this.#last.slots),
      healedPerSecond: per(c.healed - this.#last.healed),
    };
    this.#last = { at: now, accounts: c.accounts, slots: c.slots, headers: r.headerTip.number, healed: c.healed };
    const share = coveredShare(r);
    const etaSeconds = this.eta(r, share, rates.healedPerSecond);
    this.log.info('snap sync progress', {
      ...this.fields(),
      ...(r.phase === 'headers' ? { headersPerSecond: rates.headersPerSecond } : {}),
      ...(r.phase === 'accounts'
        ? {
            accountSpacePercent: Math.round(share * 1000) / 10,
            accountsPerSecond: rates.accountsPerSecond,
            slotsPerSecond: rates.slotsPerSecond,
          }
        : {}),
      ...(r.phase === 'healing' ? { healedPerSecond: rates.healedPerSecond } : {}),
      ...(etaSeconds !== undefined ? { etaSeconds } : {}),
      ...this.#extra(),
    });
  }

  /** Seconds left in the current phase, from its progress since it began; undefined while unknown. */
  private eta(r: SnapRecord, share: number, healedPerSecond: number): number | undefined {
    const elapsed = (Date.now() - this.#phase.at) / 1000;
    if (r.phase === 'headers') {
      const done = Number(r.headerTip.number - this.#phase.headers);
      const left = Number(r.pivot.number - r.headerTip.number);
      return done > 0 ? Math.round((elapsed * left) / done) : undefined;
    }
    if (r.phase === 'accounts') {
      const gained = share - this.#phase.share;
      return gained > 0 ? Math.round((elapsed * (1 - share)) / gained) : undefined;
    }
    return healedPerSecond > 0 ? Math.round(this.#pending / healedPerSecond) : undefined;
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

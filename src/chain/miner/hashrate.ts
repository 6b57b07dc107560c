/**
 * Hash-rate bookkeeping: the internal CPU miner's measured rate and the rates external miners report with
 * eth_submitHashrate, each report counting until it is older than the activity timeout (30 s, the product's
 * `miner-active-timeout`). Time comes from an injected millisecond clock so tests can move it.
 */
import { bytesToHex } from '@ethereumjs/util';

/** The CPU miner's rate over a sliding window of recent chunks. */
export class HashMeter {
  private samples: { at: number; hashes: number }[] = [];
  private since = 0;

  constructor(
    private readonly now: () => number,
    private readonly windowMs = 10_000,
  ) {}

  /** Starts a new measurement (the miner started). */
  reset(): void {
    this.samples = [];
    this.since = this.now();
  }

  record(hashes: number): void {
    const at = this.now();
    this.samples.push({ at, hashes });
    this.prune(at);
  }

  /** Hashes per second over the last window (or since the reset, if shorter). */
  rate(): bigint {
    const now = this.now();
    this.prune(now);
    const total = this.samples.reduce((sum, s) => sum + s.hashes, 0);
    if (total === 0) return 0n;
    const elapsedMs = Math.max(1, now - Math.max(this.since, now - this.windowMs));
    return BigInt(Math.round((total * 1000) / elapsedMs));
  }

  private prune(now: number): void {
    const cutoff = now - this.windowMs;
    let drop = 0;
    while (drop < this.samples.length && this.samples[drop].at <= cutoff) drop++;
    if (drop > 0) this.samples.splice(0, drop);
  }
}

/** External miners' eth_submitHashrate reports, one per client id, the latest replacing the earlier. */
export class ReportedHashrates {
  private readonly reports = new Map<string, { rate: bigint; at: number }>();

  constructor(
    private readonly now: () => number,
    private readonly timeoutMs: number,
  ) {}

  submit(rate: bigint, clientId: Uint8Array | string): void {
    const key = typeof clientId === 'string' ? clientId.toLowerCase() : bytesToHex(clientId);
    this.reports.set(key, { rate, at: this.now() });
  }

  /** Sum of the reports younger than the timeout; older ones are forgotten. */
  total(): bigint {
    const cutoff = this.now() - this.timeoutMs;
    let sum = 0n;
    for (const [key, report] of this.reports) {
      if (report.at <= cutoff) this.reports.delete(key);
      else sum += report.rate;
    }
    return sum;
  }
}

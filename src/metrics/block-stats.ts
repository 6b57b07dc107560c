/**
 * The block metrics (blocks imported by status, mined, import and seal times) kept as plain numbers and handed to
 * prom-client only at scrape time, as rpc-stats.ts does for RPC calls.
 *
 * Why: a bulk run of empty blocks (qa_mineBlocks) announces every block, and prom-client's `inc` and `observe` hash
 * their labels and build a closure and two objects per call: ~1.4 µs of the main thread's CPU a block in perf
 * samples of a 19,800-block run (bench/perf-blocks.ts), against ~40 µs for the whole block. Here a block costs a
 * bucket scan and a few additions. The exposition is prom-client's own for the same observations, byte for byte
 * (test/metrics/block-stats.test.ts feeds both the same values).
 */
import type { Registry } from 'prom-client';
import { type MetricValue, registerCustomMetric } from './custom-metric.js';

/** One histogram's observations: per-bucket counts (not cumulative; the last slot is +Inf), sum and count. */
class Tally {
  count = 0;
  sum = 0;
  readonly buckets: Float64Array;

  constructor(readonly bounds: readonly number[]) {
    this.buckets = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
    this.count++;
    this.sum += value;
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    this.buckets[i]!++;
  }

  values(name: string): MetricValue[] {
    let cumulative = 0;
    const out: MetricValue[] = this.bounds.map((le, i) => {
      cumulative += this.buckets[i]!;
      return { value: cumulative, labels: { le }, metricName: `${name}_bucket` };
    });
    out.push(
      { value: this.count, labels: { le: '+Inf' }, metricName: `${name}_bucket` },
      { value: this.sum, labels: {}, metricName: `${name}_sum` },
      { value: this.count, labels: {}, metricName: `${name}_count` },
    );
    return out;
  }
}

export class BlockStats {
  readonly #imported = { head: 0, side: 0 };
  #mined = 0;
  readonly #importTime: Tally;
  readonly #sealTime: Tally;

  constructor(importBuckets: readonly number[], sealBuckets: readonly number[]) {
    this.#importTime = new Tally(importBuckets);
    this.#sealTime = new Tally(sealBuckets);
  }

  imported(status: 'head' | 'side', seconds: number): void {
    this.#imported[status]++;
    this.#importTime.observe(seconds);
  }

  /** A block this node sealed; `seconds` is its sealing time when known. */
  sealed(seconds: number | undefined): void {
    this.#mined++;
    if (seconds !== undefined) this.#sealTime.observe(seconds);
  }

  /**
   * Registers `svc_blocks_imported_total`, `svc_block_import_duration_seconds`, `svc_blocks_mined_total` and
   * `svc_block_seal_duration_seconds`, in that order.
   */
  register(registry: Registry): void {
    const custom = (name: string, help: string, type: 'counter' | 'histogram', values: () => MetricValue[]) =>
      registerCustomMetric(registry, name, help, type, values);
    custom(
      'svc_blocks_imported_total',
      'Blocks stored by import, as the new head or on a side chain',
      'counter',
      () => [
        { value: this.#imported.head, labels: { status: 'head' } },
        { value: this.#imported.side, labels: { status: 'side' } },
      ],
    );
    custom('svc_block_import_duration_seconds', 'Time to check, execute and store one block', 'histogram', () =>
      this.#importTime.values('svc_block_import_duration_seconds'),
    );
    custom('svc_blocks_mined_total', 'Blocks this node sealed and imported', 'counter', () => [
      { value: this.#mined, labels: {} },
    ]);
    custom(
      'svc_block_seal_duration_seconds',
      'Time the miner spent assembling and sealing one block',
      'histogram',
      () => this.#sealTime.values('svc_block_seal_duration_seconds'),
    );
  }
}

/**
 * The block metrics kept as plain numbers (src/metrics/block-stats.ts) against prom-client's own Counter and Histogram
 * fed the same blocks: the exposition text and the JSON form must be the same, byte for byte, for random import and
 * seal times (values on and around the bucket bounds, beyond the last, zero, blocks without a seal time).
 */
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { BlockStats } from '../../src/metrics/block-stats.js';
import { seededRandom } from '../helpers/seeded-random.js';

const IMPORT = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SEAL = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/** prom-client's metrics, as node-metrics.ts declared them before block-stats.ts. */
function library(registry: Registry) {
  const registers = [registry];
  const imports = new Counter({
    name: 'svc_blocks_imported_total',
    help: 'Blocks stored by import, as the new head or on a side chain',
    labelNames: ['status'],
    registers,
  });
  for (const status of ['head', 'side']) imports.inc({ status }, 0);
  const importTime = new Histogram({
    name: 'svc_block_import_duration_seconds',
    help: 'Time to check, execute and store one block',
    buckets: IMPORT,
    registers,
  });
  const mined = new Counter({
    name: 'svc_blocks_mined_total',
    help: 'Blocks this node sealed and imported',
    registers,
  });
  const sealTime = new Histogram({
    name: 'svc_block_seal_duration_seconds',
    help: 'Time the miner spent assembling and sealing one block',
    buckets: SEAL,
    registers,
  });
  return {
    imported(status: 'head' | 'side', seconds: number) {
      imports.inc({ status });
      importTime.observe(seconds);
    },
    sealed(seconds: number | undefined) {
      mined.inc();
      if (seconds !== undefined) sealTime.observe(seconds);
    },
  };
}

/** A seeded generator (mulberry32): failures repeat. */

function timeOf(next: () => number, bounds: readonly number[]): number {
  const pick = next();
  const bound = bounds[Math.floor(next() * bounds.length)]!;
  if (pick < 0.2) return bound;
  if (pick < 0.3) return bound * (1 + 1e-12);
  if (pick < 0.35) return 0;
  if (pick < 0.4) return bounds[bounds.length - 1]! * (1 + next() * 10);
  return next() * bound;
}

async function json(registry: Registry) {
  return (await registry.getMetricsAsJSON()).map(({ name, help, type, values, aggregator }) => ({
    name,
    help,
    type,
    aggregator,
    values: values.map((v) => ({
      value: v.value,
      labels: v.labels,
      metricName: (v as { metricName?: string }).metricName,
    })),
  }));
}

describe('BlockStats', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`exposes what prom-client's Counter and Histogram expose for the same blocks (seed ${seed})`, async () => {
      const ours = new Registry();
      const theirs = new Registry();
      const stats = new BlockStats(IMPORT, SEAL);
      stats.register(ours);
      const reference = library(theirs);
      expect(await ours.metrics()).toBe(await theirs.metrics());
      const next = seededRandom(seed);
      for (let i = 0; i < 2_000; i++) {
        const status = next() < 0.9 ? 'head' : 'side';
        const importSeconds = timeOf(next, IMPORT);
        stats.imported(status, importSeconds);
        reference.imported(status, importSeconds);
        if (next() < 0.7) {
          const sealSeconds = next() < 0.1 ? undefined : timeOf(next, SEAL);
          stats.sealed(sealSeconds);
          reference.sealed(sealSeconds);
        }
      }
      expect(await ours.metrics()).toBe(await theirs.metrics());
      // The JSON form (cluster aggregation) holds the same values; prom-client adds `exemplar: null` to its buckets.
      expect(await json(ours)).toEqual(await json(theirs));
    });
  }

  it('refuses a time that is not a finite number, as prom-client does', () => {
    const stats = new BlockStats(IMPORT, SEAL);
    expect(() => stats.imported('head', Number.NaN)).toThrow(TypeError);
    expect(() => stats.sealed(Number.POSITIVE_INFINITY)).toThrow(TypeError);
  });
});

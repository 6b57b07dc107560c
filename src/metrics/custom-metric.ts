/**
 * A metric whose values are computed at scrape time from counts kept as plain numbers (rpc-stats.ts,
 * block-stats.ts): prom-client's own inc/observe on every request or block cost more than the work they count.
 */
import type { Registry } from 'prom-client';

export interface MetricValue {
  readonly value: number;
  readonly labels: Record<string, string | number>;
  readonly metricName?: string;
}

/** Registers `name` so that a scrape (and cluster aggregation, by sum) reads `values()`. */
export function registerCustomMetric(
  registry: Registry,
  name: string,
  help: string,
  type: 'counter' | 'histogram',
  values: () => MetricValue[],
): void {
  registry.registerMetric({
    name,
    help,
    type,
    get: async () => ({ name, help, type, values: values(), aggregator: 'sum' }),
  } as never);
}

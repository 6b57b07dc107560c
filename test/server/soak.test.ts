/**
 * The soak (scripts/soak), short: one dev node under the same mixed load for a few seconds, then what vanished
 * clients left behind must be reclaimed (issue 14): abandoned polled filters expire after the filter timeout,
 * subscriptions of clients that subscribed and vanished go with their socket, never-reading WebSocket clients
 * are disconnected with a logged reason (over the buffered-bytes cap, or silent at the ping heartbeat), and once the steady clients close nothing is left. Memory figures are
 * `npm run soak`'s business (timings never go in tests).
 */
import { describe, expect, it } from 'vitest';
import { runSoak } from '../../scripts/soak/run.js';
import { mainEntry } from '../helpers/node-process.js';

describe('soak: what vanished clients leave is reclaimed', () => {
  it('filters expire, subscriptions go with their socket, never-reading clients are dropped', async () => {
    const report = await runSoak({
      durationMs: 12_000,
      warmupMs: 0,
      sampleEveryMs: 2_000,
      filterTimeoutMs: 3_000,
      maxBufferedBytes: 256 * 1024,
      pingIntervalMs: 2_000,
      steadyClients: 5,
      subscriptionsPerClient: 10,
      filterEveryMs: 500,
      vanishEveryMs: 300,
      neverReadingEveryMs: 5_000,
      // The bundle the global setup built, as the other test nodes run (the sources through tsx cost ~4 s more CPU).
      entry: mainEntry(),
    });
    const { counts, load } = report;
    expect(load.errors).toEqual({});
    // The churn happened and was visible in the node...
    expect(load.abandonedFilters).toBeGreaterThan(10);
    expect(load.vanishedClients).toBeGreaterThan(10);
    expect(load.neverReadingClients).toBeGreaterThanOrEqual(2);
    expect(counts.duringMax.filters).toBeGreaterThan(0);
    expect(counts.duringMax.subscriptions).toBeGreaterThanOrEqual(50);
    // ...and is gone: only the steady clients' subscriptions and connections remain, then nothing.
    expect(counts.reclaimed).toEqual({ filters: 0, subscriptions: 50, connections: 5 });
    expect(counts.afterClose).toEqual({ filters: 0, subscriptions: 0, connections: 0 });
    // Each never-reading client went, with the reason logged: over the buffered-bytes cap, or (more often with
    // pings this frequent) silent at a heartbeat. The cap alone is covered by test/rpc/subscriptions.test.ts.
    expect(report.slowConsumerDrops + report.noPongDrops).toBeGreaterThanOrEqual(load.neverReadingClients);
    if (report.slowConsumerLog !== undefined) {
      expect(report.slowConsumerLog).toMatchObject({
        level: 'warn',
        reason: 'more than 262144 bytes waiting to be sent (network.rpc.ws.max-buffered-bytes)',
      });
    }
    if (report.noPongLog !== undefined) {
      expect(report.noPongLog).toMatchObject({ reason: 'no pong within 2000 ms (network.rpc.ws.ping-interval)' });
    }
  }, 150_000);
});

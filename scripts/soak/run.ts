/**
 * The soak (issue 14): one dev node under mixed load for a while, its memory sampled every few seconds, then
 * proof that what vanished clients left behind is reclaimed: abandoned polled filters expire after the filter
 * timeout, subscriptions go with their socket, never-reading WebSocket clients are disconnected. Used by
 * `npm run soak` (scripts/soak/main.ts) and, short, by test/server/soak.test.ts (which asserts the reclaim only).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { LoadStats, setUpChain, startLoad } from './load.js';
import { startSoakNode, type SoakNode } from './node.js';

export interface SoakOptions {
  /** Load duration. */
  readonly durationMs: number;
  /** Samples before this (from the load's start) are warm-up: not in the slope. */
  readonly warmupMs: number;
  readonly sampleEveryMs: number;
  /** The node's `filter.filter-timeout` (short, so that the soak sees abandoned filters expire). */
  readonly filterTimeoutMs: number;
  /** The node's `network.rpc.ws.max-buffered-bytes`. */
  readonly maxBufferedBytes: number;
  /** The node's `network.rpc.ws.ping-interval`. */
  readonly pingIntervalMs: number;
  readonly steadyClients: number;
  readonly subscriptionsPerClient: number;
  readonly filterEveryMs: number;
  readonly vanishEveryMs: number;
  readonly neverReadingEveryMs: number;
  /** Progress lines (one per sample); default none. */
  readonly onSample?: (sample: Sample) => void;
  /** What the node runs (scripts/soak/node.ts `SoakNodeOptions.entry`); default the TypeScript sources through tsx. */
  readonly entry?: readonly string[];
}

export const defaultSoakOptions: SoakOptions = {
  durationMs: 10 * 60_000,
  warmupMs: 3 * 60_000,
  sampleEveryMs: 5_000,
  filterTimeoutMs: 30_000,
  maxBufferedBytes: 1024 * 1024,
  pingIntervalMs: 30_000,
  steadyClients: 20,
  subscriptionsPerClient: 10,
  filterEveryMs: 1_000,
  vanishEveryMs: 1_000,
  neverReadingEveryMs: 20_000,
};

/** Node-side counts from /metrics. */
export interface Counts {
  readonly filters: number;
  readonly subscriptions: number;
  readonly connections: number;
}

export interface Sample extends Counts {
  /** Seconds since the load started. */
  readonly t: number;
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
  /** V8's heap as reserved (what the used heap may grow into before a major GC) and Buffers outside it. */
  readonly heapTotalBytes: number;
  readonly externalBytes: number;
  readonly head: number;
}

export interface SoakReport {
  readonly options: Omit<SoakOptions, 'onSample'>;
  readonly samples: readonly Sample[];
  readonly rss: {
    readonly atListening: number;
    readonly start: number;
    readonly afterWarmup: number;
    readonly end: number;
    readonly max: number;
  };
  /** Least-squares slopes over the samples after warm-up, MiB per minute. */
  readonly rssSlopeMiBPerMin: number;
  readonly heapSlopeMiBPerMin: number;
  readonly heapTotalSlopeMiBPerMin: number;
  /** Slope of the per-minute heap-used minima after warm-up (see `heapFloors`), and the minima. */
  readonly heapFloorSlopeMiBPerMin: number;
  readonly heapFloorsMiB: ReadonlyArray<readonly [number, number]>;
  readonly externalSlopeMiBPerMin: number;
  readonly counts: {
    readonly before: Counts;
    /** The highest of each count while the load ran. */
    readonly duringMax: Counts;
    readonly atLoadEnd: Counts;
    /** Once the churn is reclaimed: the kept filter and the steady clients only. */
    readonly reclaimed: Counts;
    /** After the steady clients closed. */
    readonly afterClose: Counts;
  };
  /** Seconds from the load's end until filters, subscriptions and connections were back to the steady ones. */
  readonly reclaimSeconds: { readonly filters: number; readonly subscriptions: number; readonly connections: number };
  readonly expected: { readonly filters: number; readonly subscriptions: number; readonly connections: number };
  /** Clients the node disconnected for their unsent bytes, and for not answering pings (log lines). */
  readonly slowConsumerDrops: number;
  readonly slowConsumerLog?: Record<string, unknown>;
  readonly noPongDrops: number;
  readonly noPongLog?: Record<string, unknown>;
  readonly load: {
    readonly calls: number;
    readonly byMethod: Record<string, number>;
    readonly errors: Record<string, number>;
    readonly sends: number;
    readonly notifications: number;
    readonly abandonedFilters: number;
    readonly vanishedClients: number;
    readonly neverReadingClients: number;
    readonly blocks: number;
  };
}

const SLOW_CONSUMER_MSG = 'websocket client too slow, disconnecting';
const NO_PONG_MSG = 'websocket client not answering pings, disconnecting';

/** `name value` lines of the Prometheus text format (no labels needed here). */
async function scrape(node: SoakNode): Promise<Map<string, number>> {
  const text = await (await fetch(new URL('metrics', node.url))).text();
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*) ([-+\d.eE]+|NaN)$/.exec(line);
    if (match) values.set(match[1]!, Number(match[2]));
  }
  return values;
}

async function countsOf(
  node: SoakNode,
): Promise<Counts & { heapUsedBytes: number; heapTotalBytes: number; externalBytes: number; head: number }> {
  const m = await scrape(node);
  return {
    filters: m.get('svc_filters') ?? NaN,
    subscriptions: m.get('svc_ws_subscriptions') ?? NaN,
    connections: m.get('svc_ws_connections') ?? NaN,
    heapUsedBytes: m.get('nodejs_heap_size_used_bytes') ?? NaN,
    heapTotalBytes: m.get('nodejs_heap_size_total_bytes') ?? NaN,
    externalBytes: m.get('nodejs_external_memory_bytes') ?? NaN,
    head: m.get('svc_head_block_number') ?? NaN,
  };
}

const pick = ({ filters, subscriptions, connections }: Counts): Counts => ({ filters, subscriptions, connections });

/** Least-squares slope of y over x. */
function slope(points: ReadonlyArray<readonly [number, number]>): number {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? NaN : num / den;
}

/**
 * The lowest heap-used sample of each whole minute after warm-up, as [minute, MiB]: the live data after the
 * minute's garbage collections, free of the saw-tooth that V8's heap sizing puts into RSS and heap-used alike.
 */
function heapFloors(samples: readonly Sample[], warmupS: number): Array<[number, number]> {
  const byMinute = new Map<number, number>();
  for (const s of samples) {
    if (s.t < warmupS) continue;
    const minute = Math.floor((s.t - warmupS) / 60);
    byMinute.set(minute, Math.min(byMinute.get(minute) ?? Infinity, s.heapUsedBytes / (1024 * 1024)));
  }
  // The last minute may be partial: keep whole minutes only.
  const whole = Math.floor((samples[samples.length - 1]!.t - warmupS) / 60);
  return [...byMinute].filter(([m]) => m < whole).map(([m, v]) => [m + warmupS / 60, v]);
}

/** Polls `read` until `done`, at most `timeoutMs`; the seconds it took, or NaN on time-out. */
async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
  since: number,
): Promise<{ value: T; seconds: number }> {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return { value, seconds: (performance.now() - since) / 1000 };
    if (performance.now() > end) return { value, seconds: NaN };
    await sleep(250);
  }
}

export async function runSoak(options: Partial<SoakOptions> = {}): Promise<SoakReport> {
  const opts = { ...defaultSoakOptions, ...options };
  const node = await startSoakNode({
    env: {
      SVC_NODE_FILTER_FILTER_TIMEOUT: `${opts.filterTimeoutMs}ms`,
      SVC_NODE_NETWORK_RPC_WS_MAX_BUFFERED_BYTES: String(opts.maxBufferedBytes),
      SVC_NODE_NETWORK_RPC_WS_PING_INTERVAL: `${opts.pingIntervalMs}ms`,
    },
    watch: [SLOW_CONSUMER_MSG, NO_PONG_MSG],
    ...(opts.entry ? { entry: opts.entry } : {}),
  });
  let load: Awaited<ReturnType<typeof startLoad>> | undefined;
  try {
    const rssAtListening = node.rss() ?? NaN;
    const setup = await setUpChain(node.url);
    const before = await countsOf(node);
    const stats = new LoadStats();
    const started = performance.now();
    load = await startLoad({ url: node.url, wsUrl: node.wsUrl, setup, stats, ...opts });

    const samples: Sample[] = [];
    const take = async () => {
      const counts = await countsOf(node);
      const sample: Sample = { t: (performance.now() - started) / 1000, rssBytes: node.rss() ?? NaN, ...counts };
      samples.push(sample);
      opts.onSample?.(sample);
    };
    await take();
    while (performance.now() - started < opts.durationMs) {
      await sleep(Math.min(opts.sampleEveryMs, Math.max(0, started + opts.durationMs - performance.now())));
      await take();
    }
    await load.stopLoops();
    const loadEnded = performance.now();
    const atLoadEnd = await countsOf(node);

    // Reclaim: the kept filter stops being polled with the loops, so only filters created by nobody remain
    // once every abandoned one has expired; the kept one is younger than the timeout here or gone too.
    const expected = { filters: 0, subscriptions: load.steadySubscriptions, connections: load.steadyConnections };
    // A filter expires after the timeout and is removed at the next sweep (every min(timeout, 60 s)); a
    // never-reading client is cut off at the second heartbeat that finds it silent.
    const filterWait = 2 * opts.filterTimeoutMs + Math.min(opts.filterTimeoutMs, 60_000) + 10_000;
    const [filters, subscriptions, connections] = await Promise.all([
      waitFor(
        () => countsOf(node),
        (c) => c.filters === expected.filters,
        filterWait,
        loadEnded,
      ),
      waitFor(
        () => countsOf(node),
        (c) => c.subscriptions === expected.subscriptions,
        2 * opts.pingIntervalMs + 15_000,
        loadEnded,
      ),
      waitFor(
        () => countsOf(node),
        (c) => c.connections === expected.connections,
        2 * opts.pingIntervalMs + 15_000,
        loadEnded,
      ),
    ]);
    const reclaimed = await countsOf(node);
    await load.closeSteady();
    const afterClose = await waitFor(
      () => countsOf(node),
      (c) => c.subscriptions === 0 && c.connections === 0,
      15_000,
      performance.now(),
    );

    const afterWarmup = samples.filter((s) => s.t >= opts.warmupMs / 1000);
    const mib = 1024 * 1024;
    const rssSlope = slope(afterWarmup.map((s) => [s.t / 60, s.rssBytes / mib]));
    const heapSlope = slope(afterWarmup.map((s) => [s.t / 60, s.heapUsedBytes / mib]));
    const max = (key: keyof Counts) => Math.max(...samples.map((s) => s[key]));
    const { onSample: _omit, ...shownOptions } = opts;
    const slowLog = node.watched.find((e) => e.msg === SLOW_CONSUMER_MSG);
    const noPongLog = node.watched.find((e) => e.msg === NO_PONG_MSG);
    return {
      options: shownOptions,
      samples,
      rss: {
        atListening: rssAtListening,
        start: samples[0]!.rssBytes,
        afterWarmup: (afterWarmup[0] ?? samples[samples.length - 1]!).rssBytes,
        end: samples[samples.length - 1]!.rssBytes,
        max: Math.max(...samples.map((s) => s.rssBytes)),
      },
      rssSlopeMiBPerMin: rssSlope,
      heapSlopeMiBPerMin: heapSlope,
      heapFloorSlopeMiBPerMin: slope(heapFloors(samples, opts.warmupMs / 1000)),
      heapFloorsMiB: heapFloors(samples, opts.warmupMs / 1000),
      heapTotalSlopeMiBPerMin: slope(afterWarmup.map((s) => [s.t / 60, s.heapTotalBytes / mib])),
      externalSlopeMiBPerMin: slope(afterWarmup.map((s) => [s.t / 60, s.externalBytes / mib])),
      counts: {
        before: pick(before),
        duringMax: { filters: max('filters'), subscriptions: max('subscriptions'), connections: max('connections') },
        atLoadEnd: pick(atLoadEnd),
        reclaimed: pick(reclaimed),
        afterClose: pick(afterClose.value),
      },
      reclaimSeconds: {
        filters: filters.seconds,
        subscriptions: subscriptions.seconds,
        connections: connections.seconds,
      },
      expected,
      slowConsumerDrops: node.watched.filter((e) => e.msg === SLOW_CONSUMER_MSG).length,
      ...(slowLog !== undefined ? { slowConsumerLog: slowLog } : {}),
      noPongDrops: node.watched.filter((e) => e.msg === NO_PONG_MSG).length,
      ...(noPongLog !== undefined ? { noPongLog } : {}),
      load: {
        calls: stats.totalCalls,
        byMethod: Object.fromEntries(stats.calls),
        errors: Object.fromEntries(stats.errors),
        sends: stats.sends,
        notifications: stats.notifications,
        abandonedFilters: stats.abandonedFilters,
        vanishedClients: stats.vanishedClients,
        neverReadingClients: stats.neverReadingClients,
        blocks: atLoadEnd.head - before.head,
      },
    };
  } finally {
    load?.destroyAll();
    await node.stop();
  }
}

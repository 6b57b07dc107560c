/**
 * npm run soak [-- --minutes 10] [--warmup-minutes 3] [--filter-timeout-seconds 30] [--json out.json]
 *
 * One dev node under mixed load (scripts/soak/load.ts) for N minutes; prints its RSS every 5 s, then RSS at
 * start, after warm-up and at the end, the least-squares slope after warm-up (MiB per minute), and the node's
 * filter, subscription and WebSocket connection counts before, during and after, with the time each took to
 * come back once the load stopped. Exits 1 when something was not reclaimed or memory grew after warm-up.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { killSoakNodes } from './node.js';
import { defaultSoakOptions, runSoak, type Counts } from './run.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    'warmup-minutes': { type: 'string' },
    'filter-timeout-seconds': { type: 'string', default: String(defaultSoakOptions.filterTimeoutMs / 1000) },
    'max-slope': { type: 'string', default: '1' },
    json: { type: 'string' },
  },
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    killSoakNodes();
    process.exit(130);
  });
}

const minutes = Number(values.minutes);
// Under this load V8 keeps growing its heap reservation for about three minutes (heap total levels off at
// ~250 MiB, RSS at ~420 MiB); memory from then on is what the slope judges.
const warmupMinutes =
  values['warmup-minutes'] !== undefined ? Number(values['warmup-minutes']) : Math.min(3, minutes / 4);
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const counts = (c: Counts) => `filters ${c.filters}, subscriptions ${c.subscriptions}, ws connections ${c.connections}`;

console.log(
  `soak: ${minutes} min of mixed load (warm-up ${warmupMinutes} min), filter timeout ${values['filter-timeout-seconds']} s, sampling every 5 s`,
);
const report = await runSoak({
  durationMs: minutes * 60_000,
  warmupMs: warmupMinutes * 60_000,
  filterTimeoutMs: Number(values['filter-timeout-seconds']) * 1000,
  onSample: (s) =>
    console.log(
      `  t=${s.t.toFixed(0).padStart(4)} s  rss ${mib(s.rssBytes).padStart(10)}  heap ${mib(s.heapUsedBytes).padStart(9)} of ${mib(s.heapTotalBytes).padStart(9)}  external ${mib(s.externalBytes).padStart(8)}  head ${s.head}  ${counts(s)}`,
    ),
});
if (values.json !== undefined) writeFileSync(values.json, JSON.stringify(report, null, 2));

const { rss, load } = report;
const secondsOr = (s: number) => (Number.isNaN(s) ? 'NOT reclaimed' : `${s.toFixed(1)} s`);
console.log(`
load: ${load.calls} calls (${load.sends} sends, ${load.blocks} blocks), ${load.notifications} notifications received,
      ${load.abandonedFilters} filters abandoned, ${load.vanishedClients} clients vanished, ${load.neverReadingClients} never-reading clients
load errors: ${Object.keys(load.errors).length === 0 ? 'none' : JSON.stringify(load.errors)}
RSS: at listening ${mib(rss.atListening)}, load start ${mib(rss.start)}, after warm-up ${mib(rss.afterWarmup)}, end ${mib(rss.end)}, max ${mib(rss.max)}
slope after warm-up: RSS ${report.rssSlopeMiBPerMin.toFixed(3)} MiB/min; V8 heap used ${report.heapSlopeMiBPerMin.toFixed(3)}, heap total ${report.heapTotalSlopeMiBPerMin.toFixed(3)}, external ${report.externalSlopeMiBPerMin.toFixed(3)} MiB/min
heap used, lowest of each minute after warm-up: ${report.heapFloorsMiB.map(([, v]) => v.toFixed(0)).join(', ')} MiB (slope ${report.heapFloorSlopeMiBPerMin.toFixed(3)} MiB/min)
counts before:      ${counts(report.counts.before)}
counts during (max): ${counts(report.counts.duringMax)}
counts at load end: ${counts(report.counts.atLoadEnd)}
counts reclaimed:   ${counts(report.counts.reclaimed)} (expected ${counts(report.expected)}; filters after ${secondsOr(report.reclaimSeconds.filters)}, subscriptions after ${secondsOr(report.reclaimSeconds.subscriptions)}, connections after ${secondsOr(report.reclaimSeconds.connections)})
counts after the steady clients closed: ${counts(report.counts.afterClose)}
never-reading clients disconnected by the node: ${report.slowConsumerDrops + report.noPongDrops} of ${load.neverReadingClients}: ${report.slowConsumerDrops} over the buffered-bytes cap, ${report.noPongDrops} for not answering pings
${report.slowConsumerLog ? `  log: ${JSON.stringify(report.slowConsumerLog)}\n` : ''}${report.noPongLog ? `  log: ${JSON.stringify(report.noPongLog)}` : ''}`);

const failures: string[] = [];
const { reclaimed, afterClose } = report.counts;
if (reclaimed.filters !== report.expected.filters) failures.push('abandoned filters did not expire');
if (reclaimed.subscriptions !== report.expected.subscriptions)
  failures.push('subscriptions of vanished clients remain');
if (reclaimed.connections !== report.expected.connections)
  failures.push('connections of vanished or never-reading clients remain');
if (afterClose.subscriptions !== 0 || afterClose.connections !== 0)
  failures.push('subscriptions or connections remain after every client closed');
if (report.slowConsumerDrops + report.noPongDrops < load.neverReadingClients)
  failures.push('a never-reading client was not disconnected');
if (!(report.rssSlopeMiBPerMin <= Number(values['max-slope'])))
  failures.push(
    `RSS grew ${report.rssSlopeMiBPerMin.toFixed(3)} MiB/min after warm-up (more than ${values['max-slope']})`,
  );
console.log(failures.length === 0 ? '\nsoak: PASS' : `\nsoak: FAIL: ${failures.join('; ')}`);
process.exitCode = failures.length === 0 ? 0 : 1;

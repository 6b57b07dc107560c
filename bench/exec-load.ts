/**
 * The node under mixed load: does the main thread keep answering while execution saturates it, and does memory
 * stay bounded? One dev node process (started as the peer comparison starts it: `node bin/svc-node.js`, the
 * bundle, warn level), the benchmark ERC-20 deployed as bench/compare/fixture.ts does, then for SECONDS at once:
 *
 * - eth_call: autocannon with CONNECTIONS connections of `balanceOf(holder)` at `latest` (bench/compare/reads.ts's
 *   call), in its own process;
 * - transfers: ERC-20 transfers signed before the clock, sent at a steady TX_RATE per second (round-robin over the
 *   fixture's four funded senders, so no sender's pool slots fill), each mined by automine as it arrives;
 * - eth_blockNumber: one client, one request at a time, the next ~10 ms after the previous answer; its latency is
 *   the main thread's responsiveness (what a wallet or a block explorer polling the head sees);
 * - the node's resident memory (its process tree), sampled every second.
 *
 * Reports eth_blockNumber p50/p99/max, eth_call req/s (and its p50/p99), transfers sent and mined per second, and
 * the RSS at the start, maximum and end of the run, with samples every 10 s, to bench/results/exec-load.md.
 *
 *   npx tsx bench/exec-load.ts
 * Knobs (environment): BENCH_SECONDS (60), BENCH_CONNECTIONS (64), BENCH_TX_RATE (100), BENCH_POLL_MS (10),
 * BENCH_OUT (bench/results/exec-load.md).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { HOLDER, prepareFixture, RECIPIENT } from './compare/fixture.js';
import { makeWorkDir, startTarget } from './compare/launcher.js';
import { LoadGenerator } from './compare/load-client.js';
import { treeRssBytes } from './compare/process-tree.js';
import { RpcClient, sleep } from './compare/rpc.js';
import { percentile } from './compare/stats.js';
import { svcNode } from './compare/targets.js';
import { balanceOfCall, TRANSFER_GAS } from './compare/token.js';

const repo = fileURLToPath(new URL('../', import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 60);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const txRate = Number(process.env.BENCH_TX_RATE ?? 100);
const pollMs = Number(process.env.BENCH_POLL_MS ?? 10);
const out = resolve(repo, process.env.BENCH_OUT ?? 'bench/results/exec-load.md');
const log = (line: string) => console.log(line);

const MiB = 2 ** 20;
const MAX_IN_FLIGHT = 32;
const fmt = (x: number | undefined, digits = 1) => (x === undefined ? 'n/a' : x.toFixed(digits));

const workDir = makeWorkDir();
const node = await startTarget(svcNode, workDir);
const generator = new LoadGenerator();
try {
  log(`node up (pid ${node.pid}); preparing the ERC-20 fixture`);
  const fixture = await prepareFixture(node);
  // Transfers signed before the clock, per sender in nonce order; a little more than the run can send.
  const perSender = Math.ceil((txRate * seconds * 1.1) / fixture.burstSenders.length) + 10;
  log(`signing ${perSender * fixture.burstSenders.length} transfers over ${fixture.burstSenders.length} senders`);
  const signed: string[][] = [];
  for (const sender of fixture.burstSenders) {
    const raws: string[] = [];
    for (let i = 0; i < perSender; i++)
      raws.push(await sender.signTokenTransfer(fixture.token, RECIPIENT, 1n, TRANSFER_GAS));
    signed.push(raws);
  }
  const minedCount = async () => {
    let total = 0;
    for (const sender of fixture.burstSenders) total += await sender.minedCount();
    return total;
  };
  const callBody = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'eth_call',
    params: [balanceOfCall(fixture.token, HOLDER), 'latest'],
  });
  // One short run first: the call path warmed up, and a body that fails is found before the minute.
  const warm = await generator.run({ url: node.url, body: callBody, connections, seconds: 3 });
  if (warm.served === 0) throw new Error('eth_call warm-up: no call answered with a result');

  const rssStart = treeRssBytes(node.pid);
  const rss: { at: number; bytes: number }[] = [{ at: 0, bytes: rssStart }];
  const minedBefore = await minedCount();
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  let running = true;

  const calls = generator.run({ url: node.url, body: callBody, connections, seconds });

  // eth_blockNumber: its own client (its own connection), one request at a time.
  const pollRpc = new RpcClient(node.url);
  const latencies: number[] = [];
  let pollFailures = 0;
  const poller = (async () => {
    while (running) {
      const t0 = performance.now();
      try {
        await pollRpc.call<string>('eth_blockNumber');
        latencies.push(performance.now() - t0);
      } catch {
        pollFailures++;
      }
      await sleep(Math.max(0, pollMs - (performance.now() - t0)));
    }
  })();

  // Transfers at a steady rate: the k-th is due at k / rate seconds; a late tick sends what is due.
  let sent = 0;
  let sendFailures = 0;
  const sendRpc = new RpcClient(node.url);
  const next = signed.map(() => 0);
  const inFlight = new Set<Promise<void>>();
  const sender = (async () => {
    while (running) {
      const due = Math.floor(elapsed() * txRate);
      // At most MAX_IN_FLIGHT sends unanswered (automine answers a send once its block is in): a node that falls
      // behind gets a backlog of due transfers, not thousands of open connections.
      while (sent < due && running && inFlight.size < MAX_IN_FLIGHT) {
        const s = sent % signed.length;
        const raw = signed[s][next[s]++];
        sent++;
        const p = sendRpc
          .call('eth_sendRawTransaction', [raw])
          .then(
            () => undefined,
            (err: Error) => {
              const cause = (err as { cause?: { message?: string } }).cause?.message;
              if (sendFailures++ < 3) log(`transfer refused: ${err.message}${cause ? ` (${cause})` : ''}`);
            },
          )
          .finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
      await sleep(5);
    }
  })();

  // The harness's own event-loop delay: a late poll is the harness's when this is large, not the node's.
  const harnessLag = monitorEventLoopDelay({ resolution: 10 });
  harnessLag.enable();
  const sampler = setInterval(() => rss.push({ at: elapsed(), bytes: treeRssBytes(node.pid) }), 1000);
  const callResult = await calls;
  running = false;
  clearInterval(sampler);
  harnessLag.disable();
  const windowSeconds = elapsed();
  await Promise.all([poller, sender, ...inFlight]);
  const minedInWindow = (await minedCount()) - minedBefore;
  // What was sent and not yet mined when the clock stopped: the backlog the node carried out of the run.
  await sleep(2000);
  const minedAfter = (await minedCount()) - minedBefore;
  const rssEnd = treeRssBytes(node.pid);
  rss.push({ at: elapsed(), bytes: rssEnd });

  latencies.sort((a, b) => a - b);
  const rssMax = Math.max(...rss.map((r) => r.bytes));
  const figures = {
    blockNumberP50: percentile(latencies, 0.5),
    blockNumberP99: percentile(latencies, 0.99),
    blockNumberMax: latencies.at(-1),
    blockNumberCount: latencies.length,
    callsPerSecond: callResult.requestsPerSecond,
    callP50: callResult.p50Ms,
    callP99: callResult.p99Ms,
    callFailed: callResult.failed,
    sentPerSecond: sent / windowSeconds,
    minedPerSecond: minedInWindow / windowSeconds,
  };
  log(
    `eth_blockNumber p50 ${fmt(figures.blockNumberP50)} ms, p99 ${fmt(figures.blockNumberP99)} ms; eth_call ${fmt(figures.callsPerSecond, 0)} req/s; transfers sent ${fmt(figures.sentPerSecond)}/s, mined ${fmt(figures.minedPerSecond)}/s; RSS start ${fmt(rssStart / MiB)} max ${fmt(rssMax / MiB)} end ${fmt(rssEnd / MiB)} MiB`,
  );

  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
  const samples = rss.filter((r, i) => i === 0 || i === rss.length - 1 || Math.round(r.at) % 10 === 0);
  const lines = [
    '# Execution under load: eth_call flood, a stream of mined transfers, eth_blockNumber polled',
    '',
    `Generated by \`npx tsx bench/exec-load.ts\` at ${new Date().toISOString()} (commit ${commit}), ${cpus().length} CPUs,`,
    `load average before the run ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ')}. One dev node process (\`node bin/svc-node.js\`, the bundle), the benchmark ERC-20 deployed;`,
    `for ${seconds} s at once: ${connections} autocannon connections of eth_call \`balanceOf(holder)\` at latest (own process),`,
    `ERC-20 transfers sent at ${txRate}/s (signed beforehand, automine seals each), and one client asking`,
    `eth_blockNumber one request at a time, ~${pollMs} ms apart. Autocannon, the harness and the node share the CPUs.`,
    '',
    '| figure | value |',
    '|---|---:|',
    `| eth_blockNumber latency p50 / p99 / max, ms | ${fmt(figures.blockNumberP50)} / ${fmt(figures.blockNumberP99)} / ${fmt(figures.blockNumberMax)} |`,
    `| eth_blockNumber answers (failed) | ${figures.blockNumberCount} (${pollFailures}) |`,
    `| eth_call ×${connections}, req/s | ${fmt(figures.callsPerSecond, 0)} |`,
    `| eth_call latency p50 / p99, ms | ${fmt(figures.callP50)} / ${fmt(figures.callP99)} |`,
    `| eth_call failed | ${figures.callFailed} |`,
    `| transfers sent, per s (failed sends) | ${fmt(figures.sentPerSecond)} (${sendFailures}) |`,
    `| transfers due but not sent (at most ${MAX_IN_FLIGHT} sends unanswered at a time) | ${Math.max(0, Math.floor(windowSeconds * txRate) - sent)} |`,
    `| transfers mined within the run, per s | ${fmt(figures.minedPerSecond)} |`,
    `| transfers mined 2 s after the run / sent | ${minedAfter} / ${sent} |`,
    `| harness event-loop delay p99 / max, ms (its own stalls, not the node's) | ${fmt(harnessLag.percentile(99) / 1e6)} / ${fmt(harnessLag.max / 1e6)} |`,
    `| run window, s (asked ${seconds}) | ${fmt(windowSeconds)} |`,
    `| node RSS at start / max / end, MiB | ${fmt(rssStart / MiB)} / ${fmt(rssMax / MiB)} / ${fmt(rssEnd / MiB)} |`,
    '',
    'RSS samples (s → MiB): ' + samples.map((r) => `${Math.round(r.at)} → ${fmt(r.bytes / MiB)}`).join(', '),
    '',
  ];
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, lines.join('\n'));
  log(`wrote ${out}`);
} finally {
  generator.close();
  await node.stop();
}

/**
 * What the RPC metrics cost the dispatcher: the same plain call (eth_chainId, a synchronous handler, text in and
 * text out as the HTTP path does it) dispatched without an observer and with the metrics observer. Each variant
 * runs in its own process: dispatchers share their closures' type feedback, so two in one process would
 * slow each other down and blur the difference. Prints the ns per call of each variant's fastest round (other load on the machine only ever adds time) and the
 * difference.
 *
 *   npx tsx bench/metrics-overhead.ts [calls per round, default 200000] [rounds, default 10]
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { methods, type Namespace } from '../src/generated/registry.js';
import type { HandlerContext } from '../src/rpc/context.js';
import { handlers } from '../src/handlers/index.js';
import { createNodeMetrics } from '../src/metrics/node-metrics.js';
import { SvcNode } from '../src/node/node.js';
import { loadConfig } from '../src/node/config.js';
import { createDispatcher } from '../src/rpc/dispatch.js';
import { createLogger } from '../src/node/logger.js';

const [variant, callsArg, roundsArg] =
  process.argv[2] === 'plain' || process.argv[2] === 'metrics'
    ? process.argv.slice(2)
    : [undefined, ...process.argv.slice(2)];
const calls = Number(callsArg ?? 200_000);
const rounds = Number(roundsArg ?? 10);

if (variant === undefined) {
  const self = fileURLToPath(import.meta.url);
  const run = (v: string) =>
    Number(
      execFileSync(process.execPath, ['--import', 'tsx', self, v, String(calls), String(rounds)], {
        encoding: 'utf8',
      }).trim(),
    );
  const plain = run('plain');
  const metrics = run('metrics');
  console.log(`eth_chainId through the dispatcher, ${rounds} rounds of ${calls} calls, fastest round, ns per call:`);
  console.log(`  without metrics: ${plain.toFixed(0)} ns`);
  console.log(
    `  with metrics:    ${metrics.toFixed(0)} ns  (+${(metrics - plain).toFixed(0)} ns, +${(((metrics - plain) / plain) * 100).toFixed(1)}%)`,
  );
} else {
  const log = createLogger({ format: 'json', level: 'error', stream: { write: () => true } as never });
  const node = new SvcNode(loadConfig({ flags: { datadir: '/tmp/svc-metrics-bench' } }), log);
  const metrics = createNodeMetrics(node);
  const ctx: HandlerContext = { node, transport: 'http' };
  const dispatcher = createDispatcher({
    methods,
    handlers,
    enabledNamespaces: new Set<Namespace>(['eth']),
    maxBatchSize: 100,
    validateResults: false,
    log,
    ...(variant === 'metrics' ? { observer: metrics.observer } : {}),
  });
  const body = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}';
  const times: number[] = [];
  for (let r = 0; r <= rounds; r++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) {
      const out = dispatcher.handleText(body, ctx);
      if (out instanceof Promise || out === undefined) throw new Error('expected a synchronous answer');
      dispatcher.serialize(out);
    }
    if (r > 0) times.push(Number(process.hrtime.bigint() - started) / calls); // round 0 warms up
  }
  times.sort((a, b) => a - b);
  // The fastest round: on a shared machine other work only ever adds time.
  console.log(times[0]);
  metrics.close();
}

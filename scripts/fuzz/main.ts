/**
 * `npm run fuzz -- [--seed N] [--count N] [--seconds N] [--from I] [--concurrency N] [--testmode] [--json]`:
 * the schema-driven fuzzer (see run.ts). Exits 1 when the pass rule fails: a crash, an answer that is not
 * JSON-RPC (or a documented transport status), a -32603, an error line in the node's log, or no eth_blockNumber
 * after the run.
 */
import { parseArgs } from 'node:util';
import { repoRoot } from '../../test/helpers/node-process.js';
import { runFuzz } from './run.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    count: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '600' },
    from: { type: 'string', default: '0' },
    concurrency: { type: 'string', default: '6' },
    testmode: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});

const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
const numbers = {
  count: Number(values.count),
  seconds: Number(values.seconds),
  from: Number(values.from),
  concurrency: Number(values.concurrency),
};
const integers = [seed, numbers.count, numbers.from, numbers.concurrency].every(Number.isSafeInteger);
if (!integers || numbers.count < 1 || numbers.from < 0 || numbers.concurrency < 1 || !(numbers.seconds > 0)) {
  console.error(
    'fuzz: --seed, --count, --from and --concurrency take integers (count and concurrency at least 1), --seconds a positive number',
  );
  process.exit(2);
}
console.log(
  `fuzz: seed ${seed} (replay with --seed ${seed}), count ${values.count}, at most ${values.seconds} s${values.testmode ? ', --testmode node' : ''}`,
);

const report = await runFuzz({
  seed,
  ...numbers,
  nodeArgs: values.testmode ? ['--testmode'] : [],
  repoRoot,
  progress: (line) => console.log(`fuzz: ${line}`),
});

if (values.json) console.log(JSON.stringify(report, null, 2));
else {
  const sorted = (o: Record<string, number>) =>
    Object.entries(o)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `  ${k}: ${v}`)
      .join('\n');
  console.log(
    `requests: ${report.requests} in ${report.seconds.toFixed(1)} s (${(report.requests / report.seconds).toFixed(0)}/s), seed ${report.seed}`,
  );
  console.log(`cases by kind:\n${sorted(report.byKind)}`);
  console.log(`answers:\n${sorted(report.outcomes)}`);
  console.log(
    `node: ${report.crashed ?? 'alive'}; eth_blockNumber after: ${report.finalBlockNumber.ok ? 'ok ' : 'FAILED '}${report.finalBlockNumber.detail}`,
  );
  console.log(`failures: ${report.failureCount}`);
  for (const f of report.failures)
    console.log(
      `  #${f.index} ${f.kind} ${f.method} over ${f.transport}: ${f.reason}\n    body: ${JSON.stringify(f.body.slice(0, 200))}`,
    );
  for (const l of report.faultLogs.slice(0, 20)) console.log(`  node log: ${JSON.stringify(l).slice(0, 1500)}`);
}
console.log(report.passed ? 'fuzz: PASS' : 'fuzz: FAIL');
process.exitCode = report.passed ? 0 : 1;

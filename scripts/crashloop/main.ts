/**
 * `npm run crashloop -- [--kills 50] [--seed N] [--keep] [--quick]`: SIGKILLs an svc-node 50 times at random moments
 * of mining, send bursts, sync from a peer and reorganisations, restarting it on the same datadir and checking it
 * after every kill (see loop.ts). Prints the seed first (replay with --seed) and a report last; exits 1 on any failed
 * check.
 */
import { parseArgs } from 'node:util';
import { formatReport, killAllNodes, runCrashLoop } from './loop.js';

const USAGE = `usage: npm run crashloop -- [--kills N] [--seed N] [--keep] [--quick]

  --kills <n>   SIGKILLs, spread evenly over mining, sends, sync and reorg (default 50)
  --seed <n>    seed of the schedule, loads and kill moments (default: random, printed)
  --keep        keep the datadirs (always kept when a check fails)
  --quick       smaller loads and chains (what the vitest run uses)
  -h, --help    this text`;

const { values } = parseArgs({
  options: {
    kills: { type: 'string', default: '50' },
    seed: { type: 'string' },
    keep: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const kills = Number(values.kills);
const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
if (!Number.isSafeInteger(kills) || kills < 1 || !Number.isSafeInteger(seed)) {
  console.error(`crashloop: --kills and --seed take integers\n${USAGE}`);
  process.exit(2);
}
console.log(`crashloop: seed ${seed} (replay with --seed ${seed}), ${kills} kills`);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    killAllNodes();
    console.error(`crashloop: ${signal}: node processes killed, stopping (seed ${seed})`);
    process.exit(130);
  });
}
process.on('exit', killAllNodes);

const report = await runCrashLoop({
  kills,
  seed,
  keep: values.keep,
  quick: values.quick,
  log: (line) => console.log(line),
});
console.log(formatReport(report));
process.exit(report.checks.failed > 0 ? 1 : 0);

/**
 * `npx tsx bench/trace-profile.ts [seconds=5] [tracer=both]`: one svc-node under `--cpu-prof`, the trace bench's
 * countdown transaction traced for that long per tracer (struct logger, callTracer), the profile left in PROFILE_DIR
 * (default a temp dir, printed) for bench/profile-summary.ts. The node runs from its bundle (`bin/svc-node.js`), as
 * bench/trace.ts runs it; FROM_SOURCES=1 runs src/main.ts through tsx instead.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/helpers/free-port.js';
import { call } from '../test/helpers/rpc.js';
import { countdownRuntime, deployCode } from '../test/trace/evm-asm.js';
import { contractAt, sendScenario } from '../test/trace/scenario.js';

const repo = fileURLToPath(new URL('../', import.meta.url));
const seconds = Number(process.argv[2] ?? 5);
const which = process.argv[3] ?? 'both';
const profileDir = process.env.PROFILE_DIR ?? mkdtempSync(join(tmpdir(), 'trace-prof-'));
const port = await freePort();
const t0 = performance.now();
const datadir = mkdtempSync(join(tmpdir(), 'trace-prof-data-'));
const { NODE_ENV: _dropped, ...env } = process.env;
const child = spawn(
  process.execPath,
  ['--cpu-prof', '--cpu-prof-dir', profileDir]
    .concat(process.env.FROM_SOURCES === '1' ? ['--import', 'tsx', 'src/main.ts'] : ['bin/svc-node.js'])
    .concat(['--http.port', String(port)])
    .concat(['--http.addr', '127.0.0.1', '--no-p2p', '--datadir', datadir]),
  { cwd: repo, env, stdio: ['ignore', 'ignore', 'inherit'] },
);
const url = `http://127.0.0.1:${port}/`;
try {
  for (let i = 0; ; i++) {
    try {
      await call(url, 'eth_chainId', [], 1000);
      break;
    } catch {
      if (i > 600) throw new Error('no answer');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const [, hash] = await sendScenario(url, [
    { name: 'deploy countdown', data: deployCode(countdownRuntime), gas: 300_000 },
    { name: 'count down', to: contractAt(0), data: `0x${(142).toString(16).padStart(64, '0')}`, gas: 1_000_000 },
  ]);
  const configs: [string, object][] = [
    ['struct logger', {}],
    ['callTracer', { tracer: 'callTracer' }],
  ];
  for (const [name, config] of configs) {
    if (which !== 'both' && !name.startsWith(which)) continue;
    process.stdout.write(`${name} from ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    const end = performance.now() + seconds * 1000;
    let n = 0;
    while (performance.now() < end) {
      await call(url, 'debug_traceTransaction', [hash, config], 120_000);
      n++;
    }
    process.stdout.write(`${name}: ${(n / seconds).toFixed(1)} traces/s\n`);
  }
} finally {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  rmSync(datadir, { recursive: true, force: true });
  process.stdout.write(`profile in ${profileDir}\n`);
}

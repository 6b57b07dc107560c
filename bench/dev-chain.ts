/**
 * `npx tsx bench/dev-chain.ts [--runs 5] [--transfers 200] [--launch bin,npm,tsx] [--seal instant,ethash]`: the two
 * dev-chain figures a developer feels first, on svc-node alone (the side-by-side comparison is `npm run bench --
 * --peers`):
 *
 * - cold start: spawn with an empty datadir → first `eth_blockNumber` answered with a result, per launch command
 *   (`bin` = `node bin/svc-node.js`, compiled JavaScript from dist/; `npm` = `npm start --`; `tsx` = `node --import
 *   tsx src/main.ts`, the TypeScript sources transpiled at load);
 * - send-and-mine, one at a time: a signed value transfer sent with eth_sendRawTransaction, then `latest`
 *   eth_getTransactionCount polled until the dev miner has sealed it, then the next; transfers per second. Run on
 *   the first launch command only, once per seal mode.
 *
 * Every node runs as its own process group with `--no-p2p --log-level warn` and is killed (group) after. Prints a
 * Markdown table; writes nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createLegacyTx } from '@ethereumjs/tx';
import { Address, bytesToHex, hexToBytes } from '@ethereumjs/util';
import { DEV_ACCOUNTS } from '../src/chain/networks/devAccounts.js';
import { txRulesAt } from '../src/chain/rules/evmRules.js';
import { getNetwork } from '../src/chain/networks/index.js';
import { buildAndBundleSync as buildDist } from '../bin/build.js';
import { freePort } from '../test/helpers/free-port.js';
import { RpcClient, sleep } from './compare/rpc.js';

const repo = fileURLToPath(new URL('../', import.meta.url));
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    transfers: { type: 'string', default: '200' },
    launch: { type: 'string', default: 'bin,npm,tsx' },
    seal: { type: 'string', default: 'instant,ethash' },
  },
});
const runs = Number(values.runs);
const transfers = Number(values.transfers);
type Launch = 'bin' | 'npm' | 'tsx';
const launches = values.launch.split(',') as Launch[];
/** An empty entry = no --seal flag (what a build without seal modes understands). */
const seals = values.seal.split(',').map((s) => (s === 'default' ? '' : s));

function commandOf(launch: Launch, args: readonly string[]): { file: string; args: string[] } {
  switch (launch) {
    case 'bin':
      return { file: process.execPath, args: ['bin/svc-node.js', ...args] };
    case 'npm':
      return { file: 'npm', args: ['start', '--silent', '--', ...args] };
    case 'tsx':
      return { file: process.execPath, args: ['--import', 'tsx', 'src/main.ts', ...args] };
  }
}

interface Started {
  readonly child: ChildProcess;
  readonly rpc: RpcClient;
  readonly coldStartMs: number;
  stop(): Promise<void>;
}

async function start(launch: Launch, seal: string): Promise<Started> {
  const datadir = mkdtempSync(join(tmpdir(), 'svc-bench-dev-'));
  const port = await freePort();
  const args = [
    '--datadir',
    datadir,
    '--http.port',
    String(port),
    '--no-p2p',
    '--log-level',
    'warn',
    ...(seal ? ['--seal', seal] : []),
  ];
  const { file, args: argv } = commandOf(launch, args);
  // dist/ up to date before the clock, so `bin` and `npm` measure a start, not a compile.
  if (launch !== 'tsx') buildDist();
  const { NODE_ENV: _production, ...env } = process.env;
  const began = performance.now();
  const child = spawn(file, argv, { cwd: repo, env, detached: true, stdio: ['ignore', 'ignore', 'inherit'] });
  let exited: string | undefined;
  child.once('exit', (code, signal) => (exited = `exited with ${code ?? signal}`));
  const rpc = new RpcClient(`http://127.0.0.1:${port}/`);
  for (;;) {
    if (exited) throw new Error(`${launch} ${exited} before answering`);
    try {
      await rpc.call('eth_blockNumber');
      break;
    } catch {
      await sleep(10);
    }
  }
  const coldStartMs = performance.now() - began;
  return {
    child,
    rpc,
    coldStartMs,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        process.kill(-child.pid!, 'SIGTERM');
        const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 10_000);
        await gone;
        clearTimeout(timer);
      }
      rmSync(datadir, { recursive: true, force: true });
    },
  };
}

/** One transfer at a time: send, wait until mined, next. Returns transfers per second. */
async function sendAndMineEach(rpc: RpcClient, count: number): Promise<number> {
  const account = DEV_ACCOUNTS[5]!;
  const key = hexToBytes(account.privateKey as `0x${string}`);
  const common = txRulesAt(getNetwork('dev'), 1n);
  const to = new Address(new Uint8Array(20).fill(0x42));
  const first = Number(BigInt(await rpc.call<string>('eth_getTransactionCount', [account.address, 'latest'])));
  const raws = Array.from({ length: count }, (_, i) =>
    bytesToHex(
      createLegacyTx({ nonce: BigInt(first + i), to, value: 1n, gasLimit: 21_000n, gasPrice: 10n ** 9n }, { common })
        .sign(key)
        .serialize(),
    ),
  );
  const began = performance.now();
  for (const [i, raw] of raws.entries()) {
    await rpc.call('eth_sendRawTransaction', [raw]);
    while (
      Number(BigInt(await rpc.call<string>('eth_getTransactionCount', [account.address, 'latest']))) <
      first + i + 1
    )
      await sleep(1);
  }
  return count / ((performance.now() - began) / 1000);
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const loadBefore = loadavg();
const rows: string[] = [];
for (const seal of seals) {
  const cold = new Map<Launch, number[]>(launches.map((l) => [l, []]));
  let perSecond: number | undefined;
  for (let run = 0; run < runs; run++) {
    for (const launch of run % 2 ? [...launches].reverse() : launches) {
      const node = await start(launch, seal);
      cold.get(launch)!.push(node.coldStartMs);
      if (run === 0 && launch === launches[0] && transfers > 0) perSecond = await sendAndMineEach(node.rpc, transfers);
      await node.stop();
      process.stderr.write(
        `seal ${seal || '(default)'} ${launch} run ${run + 1}: cold start ${node.coldStartMs.toFixed(0)} ms\n`,
      );
    }
  }
  for (const launch of launches) {
    const xs = cold.get(launch)!;
    rows.push(
      `| ${seal || '(default)'} | ${launch} | ${median(xs).toFixed(0)} | ${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)} | ${launch === launches[0] && perSecond !== undefined ? perSecond.toFixed(0) : ''} |`,
    );
  }
}
process.stdout.write(
  [
    `Node ${process.version}; ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; load average ${loadBefore.map((x) => x.toFixed(1)).join(', ')} → ${loadavg()
      .map((x) => x.toFixed(1))
      .join(', ')}; ${runs} cold starts per row; ${transfers} transfers sent and mined one at a time.`,
    '',
    '| seal | launch | cold start → first eth_blockNumber, median ms | range | each sent and mined, transfers/s |',
    '|---|---|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n'),
);

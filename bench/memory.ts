/**
 * svc-node's resident memory the way `npm run bench -- --peers` measures it (bench/compare/logs.ts): the process
 * tree of `node bin/svc-node.js` (started as bench/compare/targets.ts starts it: `--p2p.port 0 --log-level warn`,
 * no NODE_ENV), RSS read from /proc once the chain is built to the height, where every 100th block holds one ERC-20
 * transfer and the 99 blocks between are `qa_mineBlocks(99, false)`. Also the V8 heap in use (from /metrics).
 *
 *   npx tsx bench/memory.ts [--heights 10000,100000] [--runs 1] [--repo DIR] [--snapshot-at 10000] [--snapshot-dir DIR]
 *   npx tsx bench/memory.ts --floor          a plain node process, and one with the node's modules imported (idle)
 *
 * `--snapshot-at H` starts the node with `--heapsnapshot-signal=SIGUSR2` and writes a heap snapshot at height H into
 * `--snapshot-dir` (default a temporary directory, printed). The peer bench runs reads and writes before the build;
 * this script does not, so its figures are the chain's share without the load generator's leftovers.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { RECIPIENT } from './compare/fixture.js';
import { freePort } from '../test/helpers/free-port.js';
import { treeRssBytes } from './compare/process-tree.js';
import { RpcClient, sleep, waitUntilAnswering } from './compare/rpc.js';
import { TEST_KEYS } from './compare/targets.js';
import { FIRST_TRANSFER_GAS, Sender } from './compare/token.js';

const { values } = parseArgs({
  options: {
    heights: { type: 'string', default: '10000,100000' },
    runs: { type: 'string', default: '1' },
    repo: { type: 'string', default: fileURLToPath(new URL('../', import.meta.url)) },
    'snapshot-at': { type: 'string' },
    'snapshot-dir': { type: 'string' },
    floor: { type: 'boolean', default: false },
    'node-flags': { type: 'string', default: '' },
  },
});
const repo = values.repo;
const heights = values.heights.split(',').map(Number);
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const { NODE_ENV: _dropped, ...env } = process.env;

/** The node's own figures from /metrics (prom-client's process.memoryUsage()): V8 heap used and total, external. */
async function heapFigures(url: string): Promise<{ used?: number; total?: number; external?: number }> {
  try {
    const text = await (await fetch(`${url}metrics`)).text();
    const read = (name: string) => {
      const m = new RegExp(`^${name} (\\d+(?:\\.\\d+)?)`, 'm').exec(text);
      return m ? Number(m[1]) : undefined;
    };
    return {
      used: read('nodejs_heap_size_used_bytes'),
      total: read('nodejs_heap_size_total_bytes'),
      external: read('nodejs_external_memory_bytes'),
    };
  } catch {
    return {};
  }
}

/** Anonymous (heap, malloc) and file-backed (code, mapped libraries) resident memory of one process. */
function rssSplit(pid: number): string {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return `anon ${mib(kb('RssAnon'))} file ${mib(kb('RssFile'))}`;
  } catch {
    return '';
  }
}

async function waitForSnapshot(dir: string, before: number): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const files = readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot'));
    if (files.length > before) {
      const file = join(dir, files.sort().at(-1)!);
      // Written in one go; wait until its size settles.
      let size = -1;
      for (;;) {
        await sleep(500);
        const now = statSync(file).size;
        if (now === size && now > 0) return file;
        size = now;
      }
    }
    await sleep(200);
  }
  throw new Error('no heap snapshot appeared');
}

async function run(index: number): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-memory-'));
  const port = await freePort();
  const snapshotAt = values['snapshot-at'] === undefined ? undefined : Number(values['snapshot-at']);
  const snapshotDir =
    snapshotAt === undefined ? undefined : (values['snapshot-dir'] ?? mkdtempSync(join(tmpdir(), 'svc-heap-')));
  const flags = [
    ...values['node-flags'].split(' ').filter((f) => f !== ''),
    ...(snapshotDir !== undefined ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${snapshotDir}`] : []),
  ];
  const child = spawn(
    process.execPath,
    [
      ...flags,
      'bin/svc-node.js',
      '--http.port',
      String(port),
      '--p2p.port',
      '0',
      '--datadir',
      dataDir,
      '--log-level',
      'warn',
    ],
    {
      cwd: repo,
      env,
      detached: true,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}/`;
  const rpc = new RpcClient(url);
  const report = async (label: string) => {
    await sleep(200);
    const rss = treeRssBytes(child.pid!);
    const split = rssSplit(child.pid!);
    const heap = await heapFigures(url);
    const fig = (v: number | undefined) => (v === undefined ? 'n/a' : mib(v));
    console.log(
      `run ${index}: ${label.padEnd(20)} RSS ${mib(rss).padStart(6)} MiB (${split})  V8 heap used ${fig(heap.used)} of ${fig(heap.total)}, external ${fig(heap.external)}`,
    );
  };
  try {
    await waitUntilAnswering(rpc, child);
    await report('start');
    const sender = await Sender.open(rpc, TEST_KEYS[0]);
    const deploy = await sender.signDeploy(10n ** 27n);
    await sender.send(deploy.raw);
    await sender.waitAllMined(60_000, 1);
    let built = 0;
    const started = performance.now();
    for (const height of heights) {
      while (built < height) {
        await rpc.call('qa_mineBlocks', [99, false]);
        await sender.send(await sender.signTokenTransfer(deploy.address, RECIPIENT, 1n, FIRST_TRANSFER_GAS));
        await sender.waitAllMined(60_000, 1);
        built += 100;
      }
      await report(`after ${height} blocks`);
      if (height === snapshotAt && snapshotDir !== undefined) {
        const before = readdirSync(snapshotDir).filter((f) => f.endsWith('.heapsnapshot')).length;
        process.kill(child.pid!, 'SIGUSR2');
        console.log(`run ${index}: heap snapshot ${await waitForSnapshot(snapshotDir, before)}`);
      }
    }
    console.log(`run ${index}: built ${built} blocks in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The floor: a bare node process, and one that imported the node's modules but started nothing. */
function floor(): void {
  const probe = (label: string, code: string) => {
    const out = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: repo, env, encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`${label}: ${out.stderr}`);
    console.log(`${label.padEnd(40)} ${out.stdout.trim()}`);
  };
  const measure = `await new Promise((r) => setTimeout(r, 300)); globalThis.gc?.(); const m = process.memoryUsage(); console.log('RSS ' + (m.rss / 2 ** 20).toFixed(1) + ' MiB, V8 heap used ' + (m.heapUsed / 2 ** 20).toFixed(1) + ' MiB');`;
  probe('bare node', measure);
  const modules = [
    'dist/cli/cli.js',
    'dist/node/node.js',
    'dist/node/services.js',
    'dist/server/server.js',
    'dist/chain/engine.js',
    'dist/p2p/index.js',
    'dist/handlers/index.js',
  ];
  probe('node + svc-node modules imported', `${modules.map((m) => `await import('./${m}');`).join(' ')} ${measure}`);
}

// dist/ and its bundle brought up to date before anything is measured (a stale bundle is rebuilt in the node's start).
spawnSync(process.execPath, ['bin/build.js'], { cwd: repo, env, stdio: 'inherit' });
if (values.floor) {
  floor();
} else {
  for (let i = 0; i < Number(values.runs); i++) await run(i);
}

/**
 * `npx tsx bench/snap-sync.ts [--accounts 1000000] [--contracts 10000] [--slots 1000000] [--on-top 500]` (also run
 * by `npm run bench`): snap sync of a fresh node from three serving nodes on loopback (issue 26).
 *
 * 1. Serving chain (untimed, cached; bench/snap-chain.ts): a dev engine in this process mines blocks in which a
 *    contract sends 1 wei to `--accounts` fresh addresses, then `--contracts` contracts whose constructors write
 *    `--slots / --contracts` slots each, then `--on-top` blocks of one transfer. The datadir is kept under the tmp
 *    dir, keyed by the parameters, so a rerun does not rebuild it.
 * 2. Three copies of it serve as nodes (`--no-mine`, the first one `--mine` so that a new block can be made); a
 *    fresh node started with `--sync snap` and the three as bootnodes syncs; `eth_syncing` is polled until it is
 *    false and the head reached the servers'. Then the state root of that block and a sample of balances and
 *    slots are compared with a server's, a transfer is mined on the first server, and the fresh node must follow.
 * 3. Full sync of the same chain (`--sync full`) runs for `--full-seconds` (60) and is projected from the gas it
 *    executed in that time to the gas of the whole chain.
 *
 * Reported: accounts/s, slots/s, time to synced, the full-sync projection, peak RSS of the syncing node (VmHWM).
 * Output: bench/results/snap-sync.md. Every node is its own process group, killed at the end.
 *
 * The nodes run the bundle (dist/bundle/main.js, brought up to date first), as `svc-node` does: from the sources
 * through tsx (`--sources`), every node spent its first 8-10 CPU seconds compiling modules, and each seal-check
 * worker thread compiled its own, which the first snap requests waited for. `--logs DIR` keeps every node's log.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createLegacyTx } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import { DEV_ACCOUNTS } from '../src/chain/networks/devAccounts.js';
import { getNetwork } from '../src/chain/networks/index.js';
import { txRulesAt } from '../src/chain/rules/evmRules.js';
import { NODE_KEY_FILE } from '../src/p2p/node-key.js';
import { buildServingChain, devKeys, freshAddress, GWEI } from './snap-chain.js';

const repo = fileURLToPath(new URL('../', import.meta.url));
const { values } = parseArgs({
  options: {
    accounts: { type: 'string', default: '1000000' },
    contracts: { type: 'string', default: '10000' },
    slots: { type: 'string', default: '1000000' },
    'on-top': { type: 'string', default: '500' },
    'full-seconds': { type: 'string', default: '60' },
    'timeout-minutes': { type: 'string', default: '60' },
    /** A directory: each node writes V8 CPU profiles (`node --cpu-prof`, one per thread) in a subfolder of it. */
    'cpu-prof': { type: 'string' },
    /** Only build (or find cached) the serving chain, e.g. ahead of a long run. */
    'build-only': { type: 'boolean', default: false },
    /** Run the nodes from the TypeScript sources through tsx instead of the bundle. */
    sources: { type: 'boolean', default: false },
    /** A directory: each node's log (its stdout) is written there as <name>.log. */
    logs: { type: 'string' },
    /**
     * `<percent>:<dir>`: a V8 heap snapshot of the syncing node, written into <dir> once its progress line shows that
     * much of the account key space done (what the resident set holds mid-sync).
     */
    'heap-snapshot': { type: 'string' },
    /** Node (V8) flags for the syncing node only, space-separated, e.g. `--max-semi-space-size=64` (experiments). */
    'syncing-node-flags': { type: 'string' },
  },
});
const ACCOUNTS = Number(values.accounts);
const CONTRACTS = Number(values.contracts);
const SLOTS_PER_CONTRACT = Math.max(1, Math.round(Number(values.slots) / Math.max(1, CONTRACTS)));
const ON_TOP = Number(values['on-top']);
const FULL_SECONDS = Number(values['full-seconds']);
const TIMEOUT_MS = Number(values['timeout-minutes']) * 60_000;

const keys = devKeys;
const ethashDir = join(tmpdir(), 'svc-node-bench-ethash');
// v2: the accounts come from the spreader contract (snap-chain.ts), another chain than the old per-transfer one.
const cacheDir = join(tmpdir(), `svc-node-bench-snap-v2-a${ACCOUNTS}-c${CONTRACTS}-s${SLOTS_PER_CONTRACT}-t${ON_TOP}`);
const sourceDir = join(cacheDir, 'source');
const work = mkdtempSync(join(tmpdir(), 'svc-node-bench-snap-run-'));

// ---------------------------------------------------------------- 2. nodes

interface NodeProc {
  readonly child: ChildProcess;
  readonly url: string;
  readonly enode: string;
  readonly stderr: () => string;
  /** Parsed JSON log lines with the ms (performance.now) at which they were read. */
  readonly lines: { at: number; entry: Record<string, unknown> }[];
}

const running: ChildProcess[] = [];
let snapshotTaken = false;

const [snapshotAt, snapshotDir] = values['heap-snapshot']?.split(':') ?? [];

function startNode(datadir: string, extra: readonly string[], profileAs?: string): Promise<NodeProc> {
  const profile =
    values['cpu-prof'] !== undefined && profileAs !== undefined
      ? ['--cpu-prof', `--cpu-prof-dir=${join(values['cpu-prof'], profileAs)}`]
      : [];
  if (snapshotDir !== undefined && profileAs === 'syncing')
    profile.push('--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${snapshotDir}`);
  if (profileAs === 'syncing' && values['syncing-node-flags'] !== undefined)
    profile.push(...values['syncing-node-flags'].split(' ').filter((f) => f !== ''));
  const entry = values.sources ? ['--import', 'tsx', 'src/main.ts'] : ['dist/bundle/main.js'];
  const args = [
    ...profile,
    ...entry,
    ...['--network', 'dev', '--seal', 'ethash', '--datadir', datadir],
    ...['--http.addr', '127.0.0.1', '--http.port', '0', '--p2p.addr', '127.0.0.1', '--p2p.port', '0'],
    ...['--ethash.cachedir', ethashDir, ...extra],
  ];
  const { NODE_ENV: _dropped, ...env } = process.env;
  const child = spawn(process.execPath, args, { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.push(child);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const logLines: NodeProc['lines'] = [];
  const logFile = values.logs === undefined ? undefined : join(values.logs, `${profileAs ?? 'full'}.log`);
  if (logFile !== undefined) {
    mkdirSync(values.logs!, { recursive: true });
    writeFileSync(logFile, '');
  }
  return new Promise((resolve, reject) => {
    let enode = '';
    let buffered = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      if (logFile !== undefined) appendFileSync(logFile, chunk);
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        let entry: Record<string, unknown>;
        try {
          entry = JSON.parse(line) as Record<string, unknown>;
        } catch {
          continue;
        }
        logLines.push({ at: performance.now(), entry });
        if (
          profileAs === 'syncing' &&
          snapshotAt !== undefined &&
          !snapshotTaken &&
          Number(entry.accountSpacePercent ?? 0) >= Number(snapshotAt)
        ) {
          snapshotTaken = true;
          mkdirSync(snapshotDir!, { recursive: true });
          child.kill('SIGUSR2');
          process.stdout.write(`  heap snapshot asked at ${String(entry.accountSpacePercent)} % into ${snapshotDir}\n`);
        }
        if (entry.msg === 'p2p listening') enode = entry.enode as string;
        if (entry.msg === 'listening')
          resolve({ child, url: entry.url as string, enode, stderr: () => stderr, lines: logLines });
      }
    });
    child.once('exit', (code) => reject(new Error(`node on ${datadir} exited with ${code}: ${stderr.trim()}`)));
  });
}

async function stopNode(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      // the group is gone already
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const json = (await res.json()) as { result?: T; error?: { message: string } };
  if (json.error !== undefined) throw new Error(`${method}: ${json.error.message}`);
  return json.result as T;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const hex = (n: number | bigint) => `0x${n.toString(16)}`;

/** Peak resident set of a process (VmHWM), in MiB. */
function peakRssMiB(pid: number): number | undefined {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system, all threads) a process has used so far. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** A copy of the serving datadir with its own node key (copies would otherwise share one node id). */
function copyOfSource(name: string): string {
  const dir = join(work, name);
  cpSync(sourceDir, dir, { recursive: true });
  rmSync(join(dir, NODE_KEY_FILE), { force: true });
  rmSync(join(dir, 'svc-node.pid'), { force: true });
  return dir;
}

interface SnapResult {
  /** Start of the node → synced at the servers' head. */
  readonly ms?: number;
  /** `snap sync started` → `snap sync done` in the node's log, with the counts and pivot of the done line. */
  readonly snap?: { ms: number; accounts: number; slots: number; pivot: number; pivotRootMatches: boolean };
  readonly peakRss?: number;
  /** CPU seconds until synced: the syncing node's, and the servers' since it started. */
  readonly cpu?: { syncing: number; servers: number[] };
  readonly rootMatches?: boolean;
  readonly followed?: boolean;
  readonly syncing?: unknown;
  readonly stoppedBecause?: string;
}

async function snapSync(servers: NodeProc[], head: number): Promise<SnapResult> {
  const bootnodes = servers.map((s) => s.enode).join(',');
  let node: NodeProc;
  const t0 = performance.now();
  const serversBefore = servers.map((s) => cpuSeconds(s.child.pid!) ?? 0);
  try {
    node = await startNode(
      join(work, 'snap'),
      ['--no-mine', '--sync', 'snap', '--bootnodes', bootnodes, '--log-level', 'debug'],
      'syncing',
    );
  } catch (err) {
    return { stoppedBecause: `the node did not start with --sync snap: ${(err as Error).message.slice(0, 300)}` };
  }
  let lastSyncing: unknown;
  try {
    for (;;) {
      lastSyncing = await rpc<unknown>(node.url, 'eth_syncing');
      const number = Number(BigInt(await rpc<string>(node.url, 'eth_blockNumber')));
      if (lastSyncing === false && number >= head) break;
      if (performance.now() - t0 > TIMEOUT_MS)
        return { stoppedBecause: `not synced after ${values['timeout-minutes']} min`, syncing: lastSyncing };
      await sleep(500);
    }
    const ms = performance.now() - t0;
    const peakRss = peakRssMiB(node.child.pid!);
    const cpu = {
      syncing: cpuSeconds(node.child.pid!) ?? Number.NaN,
      servers: servers.map((s, i) => (cpuSeconds(s.child.pid!) ?? Number.NaN) - serversBefore[i]!),
    };
    const at = hex(head);
    const [mine, theirs] = await Promise.all(
      [node, servers[1]!].map((n) => rpc<{ stateRoot: string }>(n.url, 'eth_getBlockByNumber', [at, false])),
    );
    let rootMatches = mine!.stateRoot === theirs!.stateRoot;
    for (const i of [0, Math.floor(ACCOUNTS / 2), ACCOUNTS - 1]) {
      const who = freshAddress(i).toString();
      const [a, b] = await Promise.all([node, servers[1]!].map((n) => rpc<string>(n.url, 'eth_getBalance', [who, at])));
      rootMatches &&= a === b;
    }
    // A new block on the first server: the synced node must follow it.
    const sender = DEV_ACCOUNTS[0]!.address;
    const nonce = BigInt(await rpc<string>(servers[0]!.url, 'eth_getTransactionCount', [sender, 'latest']));
    const tx = createLegacyTx(
      { nonce, to: freshAddress(1), value: 1n, gasLimit: 21_000n, gasPrice: GWEI },
      { common: txRulesAt(getNetwork('dev'), BigInt(head) + 1n) },
    ).sign(keys[0]!);
    await rpc(servers[0]!.url, 'eth_sendRawTransaction', [bytesToHex(tx.serialize())]);
    let followed = false;
    const deadline = performance.now() + 120_000;
    while (!followed && performance.now() < deadline) {
      followed = Number(BigInt(await rpc<string>(node.url, 'eth_blockNumber'))) > head;
      if (!followed) await sleep(500);
    }
    // The node's own account of the phases (progress lines, pivot moves), for reading where the time went.
    const origin = node.lines[0]?.at ?? 0;
    for (const { at, entry } of node.lines.filter((l) => String(l.entry.msg).startsWith('snap sync'))) {
      const { msg, level: _l, time: _t, ...fields } = entry;
      process.stdout.write(`  +${((at - origin) / 1000).toFixed(1)} s ${String(msg)} ${JSON.stringify(fields)}\n`);
    }
    const started = node.lines.find((l) => l.entry.msg === 'snap sync started');
    const done = node.lines.find((l) => l.entry.msg === 'snap sync done');
    let snap: SnapResult['snap'];
    if (started !== undefined && done !== undefined) {
      const pivot = Number(done.entry.pivot);
      const served = await rpc<{ stateRoot: string }>(servers[1]!.url, 'eth_getBlockByNumber', [hex(pivot), false]);
      snap = {
        ms: done.at - started.at,
        accounts: Number(done.entry.accounts ?? 0),
        slots: Number(done.entry.slots ?? 0),
        pivot,
        pivotRootMatches: served.stateRoot === done.entry.root,
      };
    }
    return {
      ms,
      ...(snap !== undefined ? { snap } : {}),
      ...(peakRss !== undefined ? { peakRss } : {}),
      cpu,
      rootMatches,
      followed,
      syncing: lastSyncing,
    };
  } finally {
    await stopNode(node.child);
  }
}

/** Full sync for FULL_SECONDS, projected to the whole chain by executed gas. */
async function fullSyncProjection(
  servers: NodeProc[],
  gasByBlock: bigint[],
): Promise<{ blocks: number; projectedS: number }> {
  const node = await startNode(join(work, 'full'), [
    '--no-mine',
    '--sync',
    'full',
    '--bootnodes',
    servers[0]!.enode,
  ]).catch(
    // Before the snap client lands, full sync is the only mode and the flag is unknown.
    () => startNode(join(work, 'full2'), ['--no-mine', '--bootnodes', servers[0]!.enode]),
  );
  try {
    await sleep(FULL_SECONDS * 1000);
    // A full-syncing node on a loaded machine may not answer in time: the snap figures are kept all the same.
    const blocks = await rpc<string>(node.url, 'eth_blockNumber').then(
      (n) => Number(BigInt(n)),
      () => Number.NaN,
    );
    if (Number.isNaN(blocks)) return { blocks, projectedS: Number.NaN };
    const done = gasByBlock.slice(0, blocks + 1).reduce((a, b) => a + b, 0n);
    const total = gasByBlock.reduce((a, b) => a + b, 0n);
    const projectedS = done === 0n ? Number.POSITIVE_INFINITY : (FULL_SECONDS * Number(total)) / Number(done);
    return { blocks, projectedS };
  } finally {
    await stopNode(node.child);
  }
}

async function main(): Promise<void> {
  await buildServingChain(cacheDir, ethashDir, {
    accounts: ACCOUNTS,
    contracts: CONTRACTS,
    slotsPerContract: SLOTS_PER_CONTRACT,
    onTop: ON_TOP,
  });
  if (values['build-only']) {
    rmSync(work, { recursive: true, force: true });
    return;
  }
  if (!values.sources) {
    const built = spawnSync(process.execPath, ['bin/build.js'], { cwd: repo, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('node bin/build.js failed');
  }
  const servers: NodeProc[] = [];
  try {
    for (const [i, name] of ['server-1', 'server-2', 'server-3'].entries())
      servers.push(await startNode(copyOfSource(name), i === 0 ? ['--mine'] : ['--no-mine'], name));
    const head = Number(BigInt(await rpc<string>(servers[0]!.url, 'eth_blockNumber')));
    const gasByBlock: bigint[] = [0n];
    for (let n = 1; n <= head; n++)
      gasByBlock.push(
        BigInt((await rpc<{ gasUsed: string }>(servers[0]!.url, 'eth_getBlockByNumber', [hex(n), false])).gasUsed),
      );
    const snap = await snapSync(servers, head);
    // `--full-seconds 0` leaves the comparison out (profiling runs).
    const full =
      FULL_SECONDS > 0 ? await fullSyncProjection(servers, gasByBlock) : { blocks: 0, projectedS: Number.NaN };
    const slots = CONTRACTS * SLOTS_PER_CONTRACT;
    const perS = (n: number | undefined) =>
      snap.snap === undefined || n === undefined ? 'n/a' : Math.round((n * 1000) / snap.snap.ms).toString();
    const report = [
      '# Benchmark: snap sync from three local serving nodes',
      '',
      `Date: ${new Date().toISOString()}; Node ${process.version}; ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; load ${loadavg()
        .map((x) => x.toFixed(1))
        .join(', ')}`,
      `Serving chain: ${ACCOUNTS} funded accounts, ${CONTRACTS} contracts × ${SLOTS_PER_CONTRACT} slots = ${slots} slots, ${ON_TOP} blocks on top; head ${head}.`,
      '',
      '| figure | value |',
      '|---|---:|',
      `| time to synced (start → eth_syncing false at the head) | ${snap.ms === undefined ? 'n/a' : `${(snap.ms / 1000).toFixed(1)} s`} |`,
      `| snap phase (started → done, node log) | ${snap.snap === undefined ? 'n/a' : `${(snap.snap.ms / 1000).toFixed(1)} s, pivot ${snap.snap.pivot}`} |`,
      `| accounts/s (accounts downloaded / snap phase) | ${perS(snap.snap?.accounts)} (${snap.snap?.accounts ?? 'n/a'} accounts) |`,
      `| slots/s | ${perS(snap.snap?.slots)} (${snap.snap?.slots ?? 'n/a'} slots) |`,
      `| state root at the pivot matches a server's | ${snap.snap?.pivotRootMatches ?? 'n/a'} |`,
      `| state root and sampled balances at the head match a server's | ${snap.rootMatches ?? 'n/a'} |`,
      `| follows a new block after sync | ${snap.followed ?? 'n/a'} |`,
      `| CPU seconds until synced: syncing node; servers | ${snap.cpu === undefined ? 'n/a' : `${snap.cpu.syncing.toFixed(1)}; ${snap.cpu.servers.map((c) => c.toFixed(1)).join(', ')}`} |`,
      `| peak RSS of the syncing node (VmHWM) | ${snap.peakRss === undefined ? 'n/a' : `${snap.peakRss.toFixed(0)} MiB`} |`,
      `| full sync: blocks in the first ${FULL_SECONDS} s | ${Number.isNaN(full.blocks) ? 'n/a: eth_blockNumber unanswered' : full.blocks} of ${head} |`,
      `| full sync projected to the whole chain (by gas) | ${Number.isFinite(full.projectedS) ? `${(full.projectedS / 60).toFixed(1)} min` : `n/a: no block in ${FULL_SECONDS} s`} |`,
      '',
      ...(snap.stoppedBecause !== undefined ? [`Snap sync stopped: ${snap.stoppedBecause}`, ''] : []),
      ...(snap.syncing !== undefined ? [`Last eth_syncing: \`${JSON.stringify(snap.syncing)}\``, ''] : []),
    ].join('\n');
    mkdirSync(join(repo, 'bench/results'), { recursive: true });
    writeFileSync(join(repo, 'bench/results/snap-sync.md'), report);
    process.stdout.write(`\n${report}`);
  } finally {
    for (const child of running) await stopNode(child);
    rmSync(work, { recursive: true, force: true });
  }
}

await main();

/**
 * `npx tsx bench/p2p-sync.ts` (also run by `npm run bench`): blocks per second of full sync between two local
 * svc-node processes over devp2p, against importing the same blocks into an engine in one process (issue 11).
 *
 * 1. Source chain: a dev engine in this process mines BENCH_SYNC_BLOCKS blocks (2,000) of BENCH_SYNC_TXS plain
 *    transfers each (30, from the 10 dev accounts), through the pool and `miner.mineBlocks(1)` with a real Ethash
 *    seal. The blocks are then read back with `chain.getBlock(n)` and the engine is closed.
 * 2. Local import: a fresh engine on an empty datadir imports those block objects one by one (`importBlock`:
 *    seal, header and body checks, execution, one LevelDB batch per block, the same log services as the node).
 * 3. Sync: the source datadir runs as a node process (`--no-mine`), a second node process on an empty datadir
 *    dials it (`--bootnodes`), and `eth_blockNumber` is polled on the second node every 100 ms from its
 *    `listening` line until it reaches the source head. Each node is its own process group, killed at the end.
 *
 * Both nodes and the in-process engines share one Ethash cache directory, so no epoch cache is built on the clock.
 * Output: bench/results/p2p-sync.md. BENCH_SYNC_PROFILE=1 instead runs the syncing node with `--cpu-prof` and
 * writes the report with its top self-time functions to .data/p2p-sync-profile.md (profile: .data/p2p-sync.cpuprofile).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { Block } from '@ethereumjs/block';
import { createLegacyTx } from '@ethereumjs/tx';
import { Address, hexToBytes } from '@ethereumjs/util';
import { ChainEngine } from '../src/chain/engine/engine.js';
import { DEV_ACCOUNTS } from '../src/chain/networks/devAccounts.js';

const repo = fileURLToPath(new URL('../', import.meta.url));
const BLOCKS = Number(process.env.BENCH_SYNC_BLOCKS ?? 2000);
const TXS_PER_BLOCK = Number(process.env.BENCH_SYNC_TXS ?? 30);
const PROFILE = process.env.BENCH_SYNC_PROFILE === '1';
const SENDERS = 10;
const GWEI = 1_000_000_000n;
const POLL_MS = 100;
/** Longest the sync may take before the bench gives up (a stalled sync must not hang `npm run bench`). */
const SYNC_TIMEOUT_MS = Number(process.env.BENCH_SYNC_TIMEOUT_MS ?? 15 * 60_000);

const keys = DEV_ACCOUNTS.slice(0, SENDERS).map((a) => hexToBytes(a.privateKey as `0x${string}`));
const recipient = new Address(new Uint8Array(20).fill(0x77));
const coinbase = new Uint8Array(20).fill(0xcb);
const ethashDir = join(tmpdir(), 'svc-node-bench-ethash');
const work = mkdtempSync(join(tmpdir(), 'svc-node-bench-sync-'));
const sourceDir = join(work, 'source');
const importDir = join(work, 'import');
const syncDir = join(work, 'sync');
const profileDir = join(work, 'profile');

const engineOptions = (dataDir: string) => ({
  dataDir,
  network: 'dev' as const,
  powCacheDir: ethashDir,
  // Bench-sized pool: one block's transfers at a time, well inside the product defaults, but explicit.
  pool: { maxSize: 4 * TXS_PER_BLOCK, maxPerSender: 4 * TXS_PER_BLOCK },
  mining: { coinbase },
});

// ---------------------------------------------------------------- 1. the source chain

/** Mines the source chain and returns its blocks 1..BLOCKS as read back from the store. */
async function buildSourceChain(): Promise<Block[]> {
  const engine = await ChainEngine.open(engineOptions(sourceDir));
  try {
    const nonces = keys.map(() => 0n);
    const started = performance.now();
    for (let n = 1; n <= BLOCKS; n++) {
      const common = engine.chain.txCommonAt(engine.chain.getHead().header.number + 1n);
      const raws = Array.from({ length: TXS_PER_BLOCK }, (_, i) => {
        const sender = i % SENDERS;
        const tx = createLegacyTx(
          { nonce: nonces[sender]!++, to: recipient, value: 1n, gasLimit: 21_000n, gasPrice: GWEI },
          { common },
        );
        return tx.sign(keys[sender]!).serialize();
      });
      // A refused transfer throws here; one left queued shows up as a short block just below.
      await Promise.all(raws.map((raw) => engine.pool.add(raw)));
      const [mined] = await engine.miner.mineBlocks(1);
      if (mined!.block.transactions.length !== TXS_PER_BLOCK) {
        throw new Error(`block ${n} holds ${mined!.block.transactions.length} transfers, not ${TXS_PER_BLOCK}`);
      }
      if (n % 250 === 0)
        process.stdout.write(
          `source chain: ${n}/${BLOCKS} blocks (${((performance.now() - started) / 1000).toFixed(0)} s)\n`,
        );
    }
    const blocks: Block[] = [];
    for (let n = 1n; n <= BigInt(BLOCKS); n++) blocks.push((await engine.chain.getBlock(n))!);
    return blocks;
  } finally {
    await engine.close();
  }
}

// ---------------------------------------------------------------- 2. local import

interface Rate {
  readonly ms: number;
  readonly perSecond: number;
}

async function importLocally(blocks: readonly Block[]): Promise<Rate & { cpuMs: number }> {
  const engine = await ChainEngine.open(engineOptions(importDir));
  try {
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (const block of blocks) {
      const result = await engine.chain.importBlock(block);
      if (result.status !== 'head')
        throw new Error(`local import: block ${block.header.number} became ${result.status}`);
    }
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    return { ms, perSecond: (blocks.length * 1000) / ms, cpuMs: (used.user + used.system) / 1000 };
  } finally {
    await engine.close();
  }
}

// ---------------------------------------------------------------- 3. sync between two node processes

interface NodeProc {
  readonly child: ChildProcess;
  readonly url: string;
  readonly enode: string;
  /** Parsed JSON log lines with the ms (performance.now) at which this process read them. */
  readonly lines: Array<{ at: number; entry: Record<string, unknown> }>;
  /** performance.now() when the `listening` line arrived. */
  readonly listeningAt: number;
}

const running: ChildProcess[] = [];

/** Starts a node in its own process group and resolves on its `listening` line (the enode rides on it too). */
function startNode(datadir: string, extra: readonly string[], nodeFlags: readonly string[] = []): Promise<NodeProc> {
  const args = [
    ...nodeFlags,
    '--import',
    'tsx',
    'src/main.ts',
    '--network',
    'dev',
    '--datadir',
    datadir,
    '--http.addr',
    '127.0.0.1',
    '--http.port',
    '0',
    '--p2p.addr',
    '127.0.0.1',
    '--p2p.port',
    '0',
    '--no-mine',
    '--ethash.cachedir',
    ethashDir,
    ...extra,
  ];
  const { NODE_ENV: _dropped, ...env } = process.env; // production-like: no result validation
  const child = spawn(process.execPath, args, { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.push(child);
  const lines: NodeProc['lines'] = [];
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise((resolve, reject) => {
    let enode: string | undefined;
    let buffered = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const at = performance.now();
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) !== -1) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        let entry: Record<string, unknown>;
        try {
          entry = JSON.parse(line) as Record<string, unknown>;
        } catch {
          continue;
        }
        lines.push({ at, entry });
        if (entry.msg === 'p2p listening') enode = entry.enode as string;
        if (entry.msg === 'listening') {
          if (enode === undefined)
            return reject(new Error(`node on ${datadir} is listening without a "p2p listening" line`));
          resolve({ child, url: entry.url as string, enode, lines, listeningAt: at });
        }
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`node on ${datadir} exited with ${code} before listening\n${stderr}`)),
    );
  });
}

/** SIGTERM to the whole process group (main.ts then closes the database; --cpu-prof writes its file on exit). */
async function stopNode(child: ChildProcess, graceMs = 15_000): Promise<void> {
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
  const timer = setTimeout(() => signal('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

async function blockNumber(url: string): Promise<number> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
  });
  const json = (await res.json()) as { result?: string };
  if (typeof json.result !== 'string') throw new Error(`eth_blockNumber answered ${JSON.stringify(json)}`);
  return Number(BigInt(json.result));
}

interface SyncResult extends Rate {
  /** From the syncing node's `listening` line to the first poll that saw a block above 0. */
  readonly firstBlockMs: number;
  /** Blocks per second after the first synced block (handshake and start latency left out). */
  readonly steadyPerSecond: number;
  /** Block height at the first poll (the node dials its bootnode before the RPC server listens). */
  readonly heightAtListening: number;
  /** `sync started` → `sync reached target` in the syncing node's own log, when both lines were seen. */
  readonly logSpanMs: number | undefined;
  readonly syncLog: string[];
}

async function syncOverDevp2p(): Promise<SyncResult> {
  const source = await startNode(sourceDir, []);
  const sourceHead = await blockNumber(source.url);
  if (sourceHead !== BLOCKS) throw new Error(`source node reports head ${sourceHead}, expected ${BLOCKS}`);
  const profileFlags = PROFILE ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const sync = await startNode(syncDir, ['--bootnodes', source.enode], profileFlags);
  const t0 = sync.listeningAt;
  let heightAtListening: number | undefined;
  let firstBlockAt: number | undefined;
  let doneAt: number | undefined;
  while (doneAt === undefined) {
    const height = await blockNumber(sync.url);
    const now = performance.now();
    heightAtListening ??= height;
    if (height > 0 && firstBlockAt === undefined) firstBlockAt = now;
    if (height >= BLOCKS) doneAt = now;
    else if (now - t0 > SYNC_TIMEOUT_MS)
      throw new Error(`sync stalled at block ${height} after ${((now - t0) / 1000).toFixed(0)} s`);
    else await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const at = (msg: string) => sync.lines.find((l) => l.entry.msg === msg)?.at;
  const started = at('sync started');
  const reached = at('sync reached target');
  const ms = doneAt - t0;
  const steadyMs = doneAt - firstBlockAt!;
  const syncLog = sync.lines
    .filter((l) => /sync|peer|handshake/i.test(String(l.entry.msg)))
    .slice(0, 12)
    .map((l) => `+${(l.at - t0).toFixed(0)} ms ${JSON.stringify(l.entry)}`);
  await stopNode(sync.child);
  await stopNode(source.child);
  return {
    ms,
    perSecond: (BLOCKS * 1000) / ms,
    firstBlockMs: firstBlockAt! - t0,
    steadyPerSecond: steadyMs > 0 ? ((BLOCKS - 1) * 1000) / steadyMs : Number.NaN,
    heightAtListening: heightAtListening!,
    logSpanMs: started !== undefined && reached !== undefined ? reached - started : undefined,
    syncLog,
  };
}

// ---------------------------------------------------------------- profile summary

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/** Self time per function and per module (package or repo file) from a V8 .cpuprofile. */
function summariseProfile(path: string, top = 25): string[] {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const place = (url: string) => {
    const file = url.startsWith('file://') ? fileURLToPath(url) : url;
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1];
    return pkg ?? (file.startsWith(repo) ? relative(repo, file) : file || '(native/V8)');
  };
  const perFunction = new Map<string, number>();
  const perModule = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const where = place(url);
    const key = `${functionName || '(anonymous)'} ${url ? `${where}:${lineNumber + 1}` : where}`;
    perFunction.set(key, (perFunction.get(key) ?? 0) + us);
    perModule.set(where, (perModule.get(where) ?? 0) + us);
  }
  const rows = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => `| ${(us / 1000).toFixed(0)} | ${((100 * us) / total).toFixed(1)} % | \`${k}\` |`);
  return [
    `Profile of the syncing node (\`--cpu-prof\`, whole process life: start-up, sync, shutdown): ${(total / 1e6).toFixed(1)} s sampled.`,
    '',
    '| self ms | share | function (module:line) |',
    '|---:|---:|---|',
    ...rows(perFunction),
    '',
    '| self ms | share | module |',
    '|---:|---:|---|',
    ...rows(perModule).slice(0, 15),
  ];
}

// ---------------------------------------------------------------- run

async function main(): Promise<void> {
  process.stdout.write(`building a source chain of ${BLOCKS} blocks × ${TXS_PER_BLOCK} transfers\n`);
  const buildStarted = performance.now();
  const blocks = await buildSourceChain();
  const buildMs = performance.now() - buildStarted;
  const gasPerBlock = blocks[0]!.header.gasUsed;

  process.stdout.write('local import into a fresh engine\n');
  const local = await importLocally(blocks);
  process.stdout.write(
    `local import: ${BLOCKS} blocks in ${local.ms.toFixed(0)} ms = ${local.perSecond.toFixed(1)} blocks/s\n`,
  );

  process.stdout.write('sync between two node processes over devp2p\n');
  const sync = await syncOverDevp2p();
  process.stdout.write(
    `sync: ${BLOCKS} blocks in ${sync.ms.toFixed(0)} ms = ${sync.perSecond.toFixed(1)} blocks/s (first block after ${sync.firstBlockMs.toFixed(0)} ms)\n`,
  );

  const ratio = sync.perSecond / local.perSecond;
  // Worker threads write profiles of their own; the main thread's is the largest.
  const profile = PROFILE
    ? readdirSync(profileDir)
        .filter((f) => f.endsWith('.cpuprofile'))
        .sort((a, b) => statSync(join(profileDir, b)).size - statSync(join(profileDir, a)).size)
    : [];
  const command = `${PROFILE ? 'BENCH_SYNC_PROFILE=1 ' : ''}npx tsx bench/p2p-sync.ts${BLOCKS !== 2000 ? ` (BENCH_SYNC_BLOCKS=${BLOCKS})` : ''}${TXS_PER_BLOCK !== 30 ? ` (BENCH_SYNC_TXS=${TXS_PER_BLOCK})` : ''}`;
  const report = [
    '# Benchmark: full sync over devp2p between two local nodes vs local import',
    '',
    `Date: ${new Date().toISOString()}; Node ${process.version}; ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; ${(totalmem() / 2 ** 30).toFixed(1)} GiB;`,
    `load average when done: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(', ')}. The machine is shared (2 cores) and may have been busy with`,
    'other work during the run; the two nodes of the sync also share those cores with each other and with this script.',
    '',
    `Command: \`${command}\``,
    '',
    `Chain: dev network, ${BLOCKS} blocks, each ${TXS_PER_BLOCK} plain value transfers (legacy, 21,000 gas, ${SENDERS} dev accounts as senders,`,
    `one recipient), ${gasPerBlock.toLocaleString('en')} gas per block, real Ethash seals (dev difficulty). Built in ${(buildMs / 1000).toFixed(0)} s`,
    'through the pool and `miner.mineBlocks(1)` in this process (not timed).',
    '',
    '| path | blocks | time | blocks/s | transfers/s |',
    '|---|---:|---:|---:|---:|',
    `| local import (\`chain.importBlock\`, one process, fresh datadir) | ${BLOCKS} | ${(local.ms / 1000).toFixed(2)} s | ${local.perSecond.toFixed(1)} | ${Math.round(local.perSecond * TXS_PER_BLOCK)} |`,
    `| sync over devp2p (node process ← node process, from \`listening\`) | ${BLOCKS} | ${(sync.ms / 1000).toFixed(2)} s | ${sync.perSecond.toFixed(1)} | ${Math.round(sync.perSecond * TXS_PER_BLOCK)} |`,
    '',
    `**Ratio sync / local: ${ratio.toFixed(2)}**`,
    '',
    `- Local import: every block's seal (Ethash light hash), header, body and execution checked, one LevelDB batch each;`,
    `  process CPU ${(local.cpuMs / 1000).toFixed(1)} s for ${(local.ms / 1000).toFixed(1)} s wall (seal hashes and sender recovery run on the main thread, as in the syncing node).`,
    `- Sync: clock from the syncing node's \`listening\` line to the first \`eth_blockNumber\` poll (every ${POLL_MS} ms) at ${BLOCKS}.`,
    `  First synced block seen after ${sync.firstBlockMs.toFixed(0)} ms (height at the first poll: ${sync.heightAtListening}; the node dials`,
    `  its bootnode while the RPC server is still starting). After the first block: ${sync.steadyPerSecond.toFixed(1)} blocks/s.`,
    ...(sync.logSpanMs !== undefined
      ? [
          `  The node's own \`sync started\` → \`sync reached target\` span: ${(sync.logSpanMs / 1000).toFixed(2)} s = ${((BLOCKS * 1000) / sync.logSpanMs).toFixed(1)} blocks/s.`,
        ]
      : []),
    '',
    ...(profile.length > 0
      ? ['## Where the syncing node spends its time', '', ...summariseProfile(join(profileDir, profile[0]!)), '']
      : []),
  ].join('\n');
  if (PROFILE) {
    // A profiled node runs slower: its figures stay out of bench/results. The profile is kept for a closer look
    // (e.g. in Chrome DevTools); the temp directory itself is removed.
    mkdirSync(join(repo, '.data'), { recursive: true });
    writeFileSync(join(repo, '.data/p2p-sync-profile.md'), report);
    if (profile.length > 0)
      writeFileSync(join(repo, '.data/p2p-sync.cpuprofile'), readFileSync(join(profileDir, profile[0]!)));
  } else {
    mkdirSync(join(repo, 'bench/results'), { recursive: true });
    writeFileSync(join(repo, 'bench/results/p2p-sync.md'), report);
  }
  process.stdout.write('\n' + report + '\n' + sync.syncLog.join('\n') + '\n');
}

try {
  await main();
} finally {
  await Promise.all(running.map((child) => stopNode(child, 5_000)));
  rmSync(work, { recursive: true, force: true });
}

/**
 * `npx tsx bench/state-heavy-import.ts --source <datadir> [--from 151] [--count 20] [--caches default|large]`:
 * import of state-heavy blocks by a second engine, as full sync of the snap bench's serving chain pays it. The
 * source (read from a scratch copy) is a serving chain built by bench/snap-chain.ts (its account blocks each send 1 wei to ~790 fresh
 * addresses, 27.6 M gas). Blocks 1 … from−1 are imported untimed into a fresh datadir (or `--target`, a datadir
 * that already holds some of them: copy one ahead of several runs, the import continues after its head), then
 * `count` blocks are timed: blocks/s, Mgas/s, new accounts/s and the CPU seconds of this process (all threads:
 * execution, LevelDB, GC), which a busy machine disturbs less than the wall time, and Mgas per CPU second. On code
 * with the flat state, timing waits for its background build (an old datadir has none; stderr says what it took).
 *
 * `--caches large` gives the importing engine trie caches that hold the whole state (what the serving-chain builder
 * uses); `default` is a node's defaults (src/chain/cache-limits.ts); a JSON object sets some bounds. Prints one
 * line; nothing is written.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Block } from '@ethereumjs/block';
import type { CacheLimits } from '../src/chain/base/cache-limits.js';
import { ChainEngine } from '../src/chain/engine/engine.js';
import { ACCOUNTS_PER_CALL } from './snap-chain.js';

const { values } = parseArgs({
  options: {
    source: { type: 'string' },
    target: { type: 'string' },
    from: { type: 'string', default: '151' },
    count: { type: 'string', default: '20' },
    caches: { type: 'string', default: 'default' },
  },
});
if (values.source === undefined) throw new Error('--source <datadir of a serving chain> is required');
const from = Number(values.from);
const count = Number(values.count);
/** `default`, `large`, or a JSON object of cache-limits.ts bounds, e.g. '{"trieDecodedNodes":16000}'. */
const caches: Partial<CacheLimits> | undefined =
  values.caches === 'large'
    ? { trieNodes: 4_000_000, trieDecodedNodes: 200_000 }
    : values.caches.startsWith('{')
      ? (JSON.parse(values.caches) as Partial<CacheLimits>)
      : undefined;
const powCacheDir = join(tmpdir(), 'svc-node-bench-ethash');

// The source is read from a scratch copy: opening a datadir writes to it (a node with the flat state builds its
// table there when it has none), and a serving chain is shared by several benches.
const sourceCopy = mkdtempSync(join(tmpdir(), 'svc-node-bench-heavy-source-'));
cpSync(values.source, sourceCopy, { recursive: true });
const source = await ChainEngine.open({ dataDir: sourceCopy, network: 'dev', powCacheDir });
const targetDir = values.target ?? mkdtempSync(join(tmpdir(), 'svc-node-bench-heavy-import-'));
const opened = performance.now();
const target = await ChainEngine.open({
  dataDir: targetDir,
  network: 'dev',
  powCacheDir,
  // The flat state's build (an old datadir has none) logs its start and end: printed so a run says what it took.
  log: { info: (msg, fields) => console.error(`${new Date().toISOString()} ${msg} ${JSON.stringify(fields ?? {})}`) },
  ...(caches !== undefined ? { caches } : {}),
});
/** The flat table's mode, on code that has one (the engine keeps it private: a bench may look). */
const flatMode = (): string | undefined =>
  (target.chain as unknown as { view?: { flat?: { mode: string } } }).view?.flat?.mode;
try {
  const blocks: Block[] = [];
  for (let n = target.chain.getHead().header.number + 1n; n < BigInt(from + count); n++) {
    const block = await source.chain.getBlock(n);
    if (block === undefined) throw new Error(`the source has no block ${n}`);
    blocks.push(block);
  }
  await source.close();
  rmSync(sourceCopy, { recursive: true, force: true });
  // Timing starts on a built flat table: the build shares the CPU with the import, and is paid once per datadir.
  while (flatMode() === 'clearing' || flatMode() === 'building') await new Promise((r) => setTimeout(r, 250));
  if (flatMode() !== undefined)
    console.error(
      `flat state ${flatMode()} ${((performance.now() - opened) / 1000).toFixed(1)} s after the open began`,
    );
  const untimed = blocks.filter((b) => b.header.number < BigInt(from));
  for (const block of untimed) await target.chain.importBlock(block);
  const timed = blocks.slice(untimed.length);
  const gas = timed.reduce((sum, b) => sum + b.header.gasUsed, 0n);
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (const block of timed) await target.chain.importBlock(block);
  const s = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuS = (used.user + used.system) / 1e6;
  if (target.chain.getHead().header.number !== BigInt(from + count - 1)) throw new Error('the import stopped short');
  // A full spreader block (27,587,708 gas) makes ACCOUNTS_PER_CALL accounts; the range should hold only those.
  const accounts = timed.filter((b) => b.header.gasUsed === 27_587_708n).length * ACCOUNTS_PER_CALL;
  console.log(
    `blocks ${from}…${from + count - 1} (${values.caches} caches): ${(count / s).toFixed(2)} blocks/s, ` +
      `${(Number(gas) / s / 1e6).toFixed(1)} Mgas/s, ${(Number(gas) / cpuS / 1e6).toFixed(1)} Mgas/CPU-s, ` +
      `~${(accounts / s).toFixed(0)} new accounts/s; ${cpuS.toFixed(1)} CPU s (${((cpuS * 1000) / count).toFixed(0)} ms per block) in ${s.toFixed(1)} s`,
  );
} finally {
  rmSync(sourceCopy, { recursive: true, force: true });
  await target.close();
  if (values.target === undefined) rmSync(targetDir, { recursive: true, force: true });
}

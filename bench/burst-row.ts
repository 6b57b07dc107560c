/**
 * `npx tsx bench/burst-row.ts` (a diagnostic, not part of `npm run bench`): the peer report's "then sealing all
 * 1000" row against a real `node bin/svc-node.js`, the way bench/compare/writes.ts drives it (the same fixture,
 * 1,000 ERC-20 transfers over 4 senders sent with miner_stop, then miner_start and the same 2 ms polling of the
 * senders' mined counts), with the node process's CPU over each sealing window: its main thread, every thread
 * together, and by thread (/proc/<pid>/task/*: the main thread, others by id).
 *
 * Knobs: REPO=<checkout> (this one; for A/B against another worktree, whose dist/ is built), BURSTS (4, the first
 * discarded), WARMSEQ (620 sequential transfers first, as the row's preceding sequential workload),
 * CPUPROF=<dir>: the node runs with --cpu-prof into <dir> and the profile is cut to the timed sealing windows
 * (<dir>/seal-windows.cpuprofile, for bench/profile-summary.ts).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RECIPIENT, prepareFixture } from './compare/fixture.js';
import { makeWorkDir, startTarget } from './compare/launcher.js';
import { sleep } from './compare/rpc.js';
import { svcNode, repoDir, type Target } from './compare/targets.js';

const REPO = process.env.REPO ?? repoDir;
const BURSTS = Number(process.env.BURSTS ?? 4);
const WARMSEQ = Number(process.env.WARMSEQ ?? 620);
const N = 1000;
const CPUPROF = process.env.CPUPROF;

const target: Target = {
  ...svcNode,
  launch: (port, dataDir, spare) => {
    const plan = svcNode.launch(port, dataDir, spare);
    const prof = CPUPROF ? ['--cpu-prof', `--cpu-prof-dir=${CPUPROF}`] : [];
    return { ...plan, cwd: REPO, args: [...prof, ...plan.args] };
  },
};

/** CPU ms per thread name, plus the main thread and the process total (dead threads included). */
function cpuByThread(pid: number): { main: number; total: number; byName: Map<string, number> } {
  const ticks = (stat: string) => {
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  };
  const byName = new Map<string, number>();
  let main = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const ms = ticks(stat);
      const name = Number(tid) === pid ? 'main' : tid; // worker threads all read "node": told apart by id
      if (Number(tid) === pid) main = ms;
      byName.set(name, (byName.get(name) ?? 0) + ms);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return { main, total: ticks(readFileSync(`/proc/${pid}/stat`, 'utf8')), byName };
}

const nowMicros = () => Number(process.hrtime.bigint() / 1000n);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const workDir = makeWorkDir();
const node = await startTarget(target, workDir);
const windows: Array<[number, number]> = [];
try {
  const fixture = await prepareFixture(node);
  const first = fixture.sender.nextNonce;
  for (let i = 0; i < WARMSEQ; i++) {
    await fixture.sender.send(await fixture.sender.signTokenTransfer(fixture.token, RECIPIENT, 1n));
    await fixture.sender.waitMinedCount(first + i + 1, 60_000, 1);
  }
  const senders = fixture.burstSenders;
  const rows: Array<{ ms: number; main: number; total: number; blocks: number }> = [];
  for (let b = 0; b < BURSTS; b++) {
    const perSender = await Promise.all(
      senders.map((s, i) =>
        Promise.all(
          Array.from({ length: Math.ceil((N - i) / senders.length) }, () =>
            s.signTokenTransfer(fixture.token, RECIPIENT, 1n),
          ),
        ),
      ),
    );
    const raws: Array<{ send: (raw: string) => Promise<string>; raw: string }> = [];
    for (let i = 0; raws.length < N; i++) {
      const s = senders[i % senders.length]!;
      raws.push({ send: (raw) => s.send(raw), raw: perSender[i % senders.length]![Math.floor(i / senders.length)]! });
    }
    const allMined = async () =>
      (await Promise.all(senders.map(async (s) => (await s.minedCount()) >= s.nextNonce))).every(Boolean);
    const headBefore = BigInt(await node.rpc.call<string>('eth_blockNumber'));
    await node.rpc.call('miner_stop');
    for (const { send, raw } of raws) await send(raw);
    await sleep(300); // let the submissions' background work (sender recovery, GC) settle before the window
    const cpu0 = cpuByThread(node.pid);
    const t0 = performance.now();
    const us0 = nowMicros();
    await node.rpc.call('miner_start');
    while (!(await allMined())) await sleep(2);
    const ms = performance.now() - t0;
    windows.push([us0, nowMicros()]);
    const cpu1 = cpuByThread(node.pid);
    await sleep(1500); // what the seal checker and write-behind still do after the last receipt
    const cpu2 = cpuByThread(node.pid);
    const blocks = Number(BigInt(await node.rpc.call<string>('eth_blockNumber')) - headBefore);
    const names = [...cpu2.byName.keys()]
      .map((n) => {
        const during = (cpu1.byName.get(n) ?? 0) - (cpu0.byName.get(n) ?? 0);
        const after = (cpu2.byName.get(n) ?? 0) - (cpu1.byName.get(n) ?? 0);
        return { n, during, after };
      })
      .filter((x) => x.during + x.after >= 20)
      .sort((x, y) => y.during + y.after - (x.during + x.after))
      .map((x) => `${x.n} ${x.during}+${x.after}`);
    const row = { ms, main: cpu1.main - cpu0.main, total: cpu1.total - cpu0.total, blocks };
    console.log(
      `burst ${b}: sealed ${N} in ${ms.toFixed(0)} ms, ${blocks} block(s); node CPU main ${row.main} ms, all ` +
        `${row.total} ms (+${cpu2.total - cpu1.total} ms in the next 1.5 s); by thread (during+after): ${names.join(', ')}`,
    );
    if (b > 0) rows.push(row);
  }
  console.log(
    `median of ${rows.length}: ${median(rows.map((r) => r.ms)).toFixed(0)} ms wall, main ${median(
      rows.map((r) => r.main),
    )} ms, all threads ${median(rows.map((r) => r.total))} ms`,
  );
} finally {
  await node.stop();
}
if (CPUPROF) cutProfile(CPUPROF, windows.slice(1));

/** Keeps only the samples inside the timed windows (V8's profile clock and hrtime are both CLOCK_MONOTONIC). */
function cutProfile(dir: string, keep: Array<[number, number]>): void {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile') && !f.startsWith('seal-windows'));
  if (!file) throw new Error(`no profile in ${dir}`);
  const p = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
    startTime: number;
    samples: number[];
    timeDeltas: number[];
  };
  const samples: number[] = [];
  const deltas: number[] = [];
  let t = p.startTime;
  p.samples.forEach((id, i) => {
    const dt = p.timeDeltas[i] ?? 0;
    t += dt;
    if (keep.some(([a, b]) => t >= a && t <= b)) {
      samples.push(id);
      deltas.push(dt);
    }
  });
  writeFileSync(join(dir, 'seal-windows.cpuprofile'), JSON.stringify({ ...p, samples, timeDeltas: deltas }));
  console.log(`profile cut to ${samples.length} samples in ${keep.length} window(s): ${dir}/seal-windows.cpuprofile`);
}

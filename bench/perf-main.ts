/**
 * Linux `perf` CPU-clock samples of this process's main thread over a stretch of a bench (transfer-phases.ts's
 * `PERF=<file>`): only time the thread ran is sampled, unlike V8's `--cpu-prof`, which samples by wall clock and on a
 * loaded machine charges the time the thread waited for a core to whatever it was in. Needs `perf`
 * (kernel.perf_event_paranoid ≤ 2) and node started with `--perf-basic-prof` (e.g. NODE_OPTIONS) to name JIT code.
 * Writes the samples folded (`frame;frame;… count`, root first: flamegraph input) to the file and prints the largest
 * functions by inclusive time and, with PERF_FOCUS=<name>, that function's direct callees.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const FREQ = 4999;

export interface PerfMain {
  /** Stops sampling; `units` is what the stretch did (transfers), for the per-unit figures. */
  stop(units: number, unit: string): Promise<void>;
}

export async function perfMain(outFile: string): Promise<PerfMain> {
  if (!process.execArgv.includes('--perf-basic-prof') && !process.env.NODE_OPTIONS?.includes('--perf-basic-prof'))
    console.warn('perf-main: node runs without --perf-basic-prof, JIT frames will be unnamed');
  const dir = mkdtempSync(join(tmpdir(), 'perf-main-'));
  const data = join(dir, 'perf.data');
  const args = ['record', '-q', '-F', String(FREQ), '-e', 'cpu-clock', '-g', '-t', String(process.pid), '-o', data];
  const perf = spawn('perf', args, { stdio: 'ignore' });
  const exited = new Promise((resolve) => perf.once('exit', resolve));
  // perf needs a moment to attach before the stretch starts.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return {
    async stop(units, unit) {
      perf.kill('SIGINT');
      await exited;
      const script = execFileSync('perf', ['script', '-i', data, '-F', 'ip,sym'], {
        maxBuffer: 1 << 30,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      rmSync(dir, { recursive: true, force: true });
      const samples: string[][] = [];
      let current: string[] | undefined;
      for (const line of script.split('\n')) {
        if (line.trim() === '') {
          current = undefined;
          continue;
        }
        if (current === undefined) {
          current = [];
          samples.push(current);
        }
        current.push(nameOf(line.trim().split(' ').slice(1).join(' ')));
      }
      const folded = new Map<string, number>();
      for (const frames of samples) {
        const key = [...frames].reverse().join(';');
        folded.set(key, (folded.get(key) ?? 0) + 1);
      }
      writeFileSync(outFile, [...folded].map(([k, n]) => `${k} ${n}`).join('\n'));
      const per = (n: number) => ((n / FREQ) * 1e6) / units;
      console.log(`perf: main thread ${per(samples.length).toFixed(0)} µs CPU a ${unit} (${samples.length} samples)`);
      const inclusive = new Map<string, number>();
      const self = new Map<string, number>();
      for (const frames of samples) {
        for (const name of new Set(frames)) inclusive.set(name, (inclusive.get(name) ?? 0) + 1);
        self.set(frames[0] ?? '?', (self.get(frames[0] ?? '?') ?? 0) + 1);
      }
      const top = Number(process.env.PERF_TOP ?? 60);
      console.log(`perf: main thread, inclusive µs a ${unit} (self):`);
      for (const [name, n] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top))
        console.log(
          `  ${per(n).toFixed(1).padStart(7)} (${per(self.get(name) ?? 0).toFixed(1)})  ${name.slice(0, 110)}`,
        );
      for (const focus of (process.env.PERF_FOCUS ?? '').split(',').filter((f) => f !== '')) {
        const callees = new Map<string, number>();
        for (const frames of samples) {
          const at = frames.findLastIndex((f) => f === focus || f.startsWith(`${focus} `));
          if (at === -1) continue;
          const callee = at === 0 ? '(self)' : frames[at - 1]!;
          callees.set(callee, (callees.get(callee) ?? 0) + 1);
        }
        console.log(`perf: direct callees of ${focus}, µs a ${unit}:`);
        for (const [callee, n] of [...callees].sort((a, b) => b[1] - a[1]).slice(0, 25))
          console.log(`  ${per(n).toFixed(1).padStart(7)}  ${callee.slice(0, 110)}`);
      }
    },
  };
}

/** A JIT frame's function name with its file (`JS:*extend file:///…/x.ts:1:2` → `extend x.ts`), else the symbol. */
function nameOf(frame: string): string {
  const js = /^JS:[*^~+]?(\S*)(?: (\S+))?/.exec(frame);
  if (js === null) return frame;
  const file = js[2]?.replace(/^.*\//, '').replace(/:\d+(:\d+)?$/, '') ?? '';
  return file === '' ? js[1]! : `${js[1]} ${file}`;
}

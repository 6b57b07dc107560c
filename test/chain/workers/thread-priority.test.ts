/**
 * Background threads at a lower scheduler priority (src/chain/workers/thread-priority.ts): a worker thread lowers its
 * own nice and nothing else's; in a fresh process, the threads `lowerPlatformThreads` picks are the ones V8 runs its
 * optimising compiler on (they get the compile jobs' CPU), and the main thread keeps its priority. Linux only (/proc).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { getPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

const linux = existsSync('/proc/thread-self');
const modulePath = fileURLToPath(new URL('../../../src/chain/workers/thread-priority.ts', import.meta.url));

describe.runIf(linux)('thread priority', () => {
  it('a worker thread lowers its own priority only', async () => {
    const mainBefore = getPriority(process.pid);
    const source = `
      const { parentPort } = require('node:worker_threads');
      const { readlinkSync } = require('node:fs');
      const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
      parentPort.postMessage({ tid });
      setInterval(() => {}, 1000); // alive until terminated
    `;
    const worker = new Worker(source, { eval: true });
    const { tid } = await new Promise<{ tid: number }>((resolve) => worker.once('message', resolve));
    expect(tid).not.toBe(process.pid);
    const { lowerThreadPriority } = await import(modulePath);
    expect(lowerThreadPriority(tid, 12)).toBe(true);
    expect(getPriority(tid)).toBe(12);
    // Never raised back: a nice already at or above the asked one stays.
    expect(lowerThreadPriority(tid, 11)).toBe(true);
    expect(getPriority(tid)).toBe(12);
    expect(getPriority(process.pid)).toBe(mainBefore);
    await worker.terminate();
  });

  it("picks V8's compiler threads in a fresh process and leaves its main thread as it was", () => {
    // A child that lowers them, then makes TurboFan compile many distinct hot functions (concurrently, on V8's
    // platform threads) and reports every thread's nice and CPU ticks since.
    const script = `
      import { readdirSync, readFileSync } from 'node:fs';
      import { getPriority } from 'node:os';
      const { lowerPlatformThreads } = await import(${JSON.stringify(modulePath)});
      const picked = lowerPlatformThreads(10);
      const ticks = (t) => { const f = readFileSync('/proc/self/task/' + t + '/stat', 'utf8');
        const r = f.slice(f.lastIndexOf(')') + 2).split(' '); return Number(r[11]) + Number(r[12]); };
      const tasks = () => readdirSync('/proc/self/task').map(Number);
      const before = new Map(tasks().map((t) => [t, ticks(t)]));
      let sink = 0;
      for (let f = 0; f < 400; f++) {
        const fn = new Function('a', 'b', 'let s = 0; for (let i = 0; i < 40; i++) s += (a * i + b + ' + f +
          ') % 7 + Math.imul(i, ' + f + ') + (s >>> 3); return s;');
        for (let i = 0; i < 20000; i++) sink += fn(i, f);
      }
      const out = tasks().map((t) => ({ t, nice: getPriority(t), cpu: ticks(t) - (before.get(t) ?? 0) }));
      console.log(JSON.stringify({ picked, main: process.pid, out, sink: sink > 0 }));
    `;
    const text = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    const { picked, main, out } = JSON.parse(text.trim().split('\n').pop()!) as {
      picked: number[];
      main: number;
      out: { t: number; nice: number; cpu: number }[];
    };
    const seen = JSON.stringify({ picked, main, out });
    expect(picked, seen).toHaveLength(4);
    expect(out.find((x) => x.t === main)!.nice, seen).toBe(getPriority(process.pid));
    for (const x of out) expect(x.nice, seen).toBe(picked.includes(x.t) ? 10 : getPriority(process.pid));
    // The compile jobs ran on the picked threads: they got CPU, the other helper threads (scheduler, libuv, the module
    // loader's) little; with the cores busy elsewhere a tick or two more lands on them, hence the margin.
    const cpuOf = (xs: typeof out) => xs.reduce((s, x) => s + x.cpu, 0);
    const pickedCpu = cpuOf(out.filter((x) => picked.includes(x.t)));
    const otherCpu = cpuOf(out.filter((x) => x.t !== main && !picked.includes(x.t)));
    expect(pickedCpu, seen).toBeGreaterThan(3);
    expect(otherCpu, seen).toBeLessThanOrEqual(Math.max(3, pickedCpu / 4));
  }, 90_000);
});

/** ProgressLog's arithmetic on an injected clock: percent, rate over the last interval, ETA at the average pace since the
 * start or, once the work marks it, since its steady pace began. */
import { describe, expect, it } from 'vitest';
import { ProgressLog, formatDuration } from '../../src/chain/base/progress-log.js';

describe('ProgressLog', () => {
  it('reports percent, the last interval’s rate and the ETA at the average pace', () => {
    let now = 1_000_000;
    const lines: Array<Record<string, unknown>> = [];
    const progress = new ProgressLog({
      log: { info: (_m, f) => lines.push(f!) },
      message: 'work',
      total: 1000,
      unit: 'blocks',
      now: () => now,
      fields: () => ({ epoch: 3 }),
    });
    expect(progress.snapshot()).toMatchObject({ done: 0, percent: 0, rate: 0, etaSeconds: undefined });

    now += 10_000;
    progress.update(100);
    expect(progress.tick()).toEqual({ done: 100, total: 1000, percent: 10, rate: 10, pace: 10, etaSeconds: 90 });
    now += 5_000;
    progress.update(400);
    // 300 blocks in the last 5 s; 400 in 15 s on average → 600 left take 22.5 s.
    expect(progress.tick()).toEqual({
      done: 400,
      total: 1000,
      percent: 40,
      rate: 60,
      pace: 400 / 15,
      etaSeconds: 22.5,
    });
    expect(lines).toEqual([
      { epoch: 3, done: 100, total: 1000, percent: 10, blocksPerSecond: 10, eta: '1m30s' },
      { epoch: 3, done: 400, total: 1000, percent: 40, blocksPerSecond: 60, eta: '23s' },
    ]);
    progress.update(1200, 1200);
    expect(progress.snapshot()).toMatchObject({ percent: 100, etaSeconds: 0 });
  });

  it('leaves a warm-up out of the ETA once the work marks where its steady pace starts', () => {
    let now = 0;
    const lines: Array<Record<string, unknown>> = [];
    const progress = new ProgressLog({
      log: { info: (_m, f) => lines.push(f!) },
      message: 'import progress',
      total: 60_000,
      unit: 'blocks',
      now: () => now,
    });
    // An import's first block waits 30 s for its Ethash cache, then blocks go at 300/s.
    now += 30_000;
    progress.update(1);
    progress.markPaceStart();
    now += 5_000;
    progress.update(1_501);
    // 58,499 blocks left at 300/s: 3m15s, where the average since the start (1,501 in 35 s) said 22m44s.
    expect(progress.tick()).toMatchObject({ pace: 300, etaSeconds: 58_499 / 300 });
    expect(lines).toEqual([
      {
        done: 1_501,
        total: 60_000,
        percent: 2.5,
        blocksPerSecond: 42.9,
        steadyBlocksPerSecond: 300,
        eta: '3m15s',
      },
    ]);
  });

  it('ticks on its own timer until stopped', async () => {
    const lines: unknown[] = [];
    const progress = new ProgressLog({
      log: { info: (m) => lines.push(m) },
      message: 'work',
      total: 10,
      intervalMs: 20,
    }).start();
    // Three ticks come on their own, however late a loaded machine fires the timer; none after stop().
    const deadline = Date.now() + 10_000;
    while (lines.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    progress.stop();
    const count = lines.length;
    expect(count).toBeGreaterThanOrEqual(3);
    await new Promise((r) => setTimeout(r, 60));
    expect(lines.length).toBe(count);
  });

  it('formats durations', () => {
    expect([3, 59.6, 75, 3599, 7322].map(formatDuration)).toEqual(['3s', '1m00s', '1m15s', '59m59s', '2h02m']);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestLimiter, TransientError } from './request-limiter.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('RequestLimiter', () => {
  it('retries a transient failure up to the retry count, then gives up with the last error', async () => {
    vi.useFakeTimers();
    const limiter = new RequestLimiter({ concurrency: 4, perSecond: 1000, retries: 3 });
    let attempts = 0;
    const run = limiter.run(async () => {
      attempts++;
      throw new TransientError(`down ${attempts}`);
    });
    const outcome = expect(run).rejects.toThrow('down 4');
    await vi.runAllTimersAsync();
    await outcome;
    expect(attempts).toBe(4);
  });

  it('does not retry an answer that is an error of its own', async () => {
    const limiter = new RequestLimiter({ concurrency: 4, perSecond: 1000, retries: 3 });
    let attempts = 0;
    await expect(
      limiter.run(async () => {
        attempts++;
        throw new Error('invalid params');
      }),
    ).rejects.toThrow('invalid params');
    expect(attempts).toBe(1);
  });

  it('succeeds on a retry after transient failures', async () => {
    vi.useFakeTimers();
    const limiter = new RequestLimiter({ concurrency: 4, perSecond: 1000, retries: 3 });
    let attempts = 0;
    const run = limiter.run(async () => {
      if (++attempts < 3) throw new TransientError('blip');
      return 'answer';
    });
    await vi.runAllTimersAsync();
    await expect(run).resolves.toBe('answer');
  });

  it('keeps at most `concurrency` requests open', async () => {
    const limiter = new RequestLimiter({ concurrency: 2, perSecond: 1_000_000, retries: 0 });
    let open = 0;
    let most = 0;
    const releases: Array<() => void> = [];
    const work = () =>
      limiter.run(async () => {
        open++;
        most = Math.max(most, open);
        await new Promise<void>((resolve) => releases.push(resolve));
        open--;
      });
    const all = Promise.all([work(), work(), work(), work(), work()]);
    for (let released = 0; released < 5; ) {
      // A start may wait out the rate limit's spacing on a timer (Date.now() has whole milliseconds), so wait until
      // as many have started as may, then a little longer for any that should not have.
      const expected = Math.min(2, 5 - released);
      for (let polls = 0; releases.length < expected && polls < 2_000; polls++) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(open).toBe(expected);
      for (const release of releases.splice(0)) {
        release();
        released++;
      }
    }
    await all;
    expect(most).toBe(2);
  });

  it('starts at most `perSecond` requests per second', async () => {
    vi.useFakeTimers();
    const limiter = new RequestLimiter({ concurrency: 100, perSecond: 10, retries: 0 });
    let started = 0;
    const all = Promise.all(Array.from({ length: 30 }, () => limiter.run(async () => started++)));
    await vi.advanceTimersByTimeAsync(999);
    expect(started).toBe(10);
    await vi.advanceTimersByTimeAsync(1000);
    expect(started).toBe(20);
    await vi.runAllTimersAsync();
    await all;
    expect(started).toBe(30);
  });
});

/**
 * A stop does not wait out the history backfill's idle waits: on every node that never snap-synced the backfill
 * polls once a second, and close() used to sit out that second (the bulk of a mordor/etc node's shutdown). Fake
 * timers that never advance make it a question of whether close() needs a timer at all, not of how fast it is.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChainPort } from '../../chain-port.js';
import { HistoryBackfill } from './backfill.js';
import { pause } from './pause.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Settles `promise` within the microtask queue, or reports that it still waits (for a timer that never fires). */
async function settles(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 50; i++) await Promise.resolve();
  return done;
}

describe('idle waits of the sync end at a stop', () => {
  it('pause() resolves when its signal aborts, and at once when it was aborted already', async () => {
    const stop = new AbortController();
    const waiting = pause(60_000, stop.signal);
    expect(await settles(waiting)).toBe(false);
    stop.abort();
    expect(await settles(waiting)).toBe(true);
    expect(await settles(pause(60_000, stop.signal))).toBe(true);
  });

  it('HistoryBackfill.close() resolves while the backfill idles with nothing to fetch', async () => {
    // A node that never snap-synced: a history store without a frontier, polled by the idle loop.
    const chain = { history: { frontier: () => undefined } } as unknown as ChainPort;
    const backfill = HistoryBackfill.start({
      chain,
      sessions: () => [],
      onBadPeer: () => undefined,
      log: { info: () => undefined, debug: () => undefined },
      busy: () => false,
    });
    await vi.advanceTimersByTimeAsync(500); // past the first idle wait, into the once-a-second poll
    expect(await settles(backfill.close())).toBe(true);
  });
});

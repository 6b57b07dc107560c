import { describe, expect, it } from 'vitest';
import { MemoryGuard } from './memory.js';
import {
  INITIAL_REQUEST_BYTES,
  MAX_REQUEST_BYTES,
  MAX_STORAGE_REQUEST_BYTES,
  MAX_TIMEOUT_MS,
  MIN_REQUEST_BYTES,
  MIN_TIMEOUT_MS,
  PeerRate,
  TARGET_ANSWER_MS,
} from './rates.js';

describe('PeerRate', () => {
  it('asks a fresh peer the initial size with the longest timeout', () => {
    const t = new PeerRate().ticket('accounts');
    expect(t).toEqual({ bytes: INITIAL_REQUEST_BYTES, timeoutMs: MAX_TIMEOUT_MS });
  });

  it('sizes requests to what the peer delivers within the target time', () => {
    const rate = new PeerRate();
    // A peer that delivers 100 KiB/s whatever it is asked: the size settles at 150 KiB for the 1.5 s target.
    for (let i = 0; i < 60; i++) {
      const asked = rate.ticket('accounts').bytes;
      rate.answered('accounts', asked, asked, (asked / (100 * 1024)) * 1_000);
    }
    const bytes = rate.ticket('accounts').bytes;
    expect(Math.abs(bytes - (100 * 1024 * TARGET_ANSWER_MS) / 1_000)).toBeLessThan(4 * 1024);
    // The timeout follows the round trip (3 × ~1.5 s), within its bounds.
    expect(rate.ticket('accounts').timeoutMs).toBeGreaterThanOrEqual(MIN_TIMEOUT_MS);
    expect(rate.ticket('accounts').timeoutMs).toBeLessThan(5_000);
  });

  it('grows towards the bound for a fast peer, and the window with it', () => {
    const rate = new PeerRate();
    for (let i = 0; i < 40; i++)
      rate.answered('accounts', rate.ticket('accounts').bytes, rate.ticket('accounts').bytes, 50);
    expect(rate.ticket('accounts').bytes).toBe(MAX_REQUEST_BYTES);
    expect(rate.window).toBeGreaterThan(3);
    // Storage requests stop at their own bound (their pieces are of a known most).
    for (let i = 0; i < 40; i++)
      rate.answered('storage', rate.ticket('storage').bytes, rate.ticket('storage').bytes, 50);
    expect(rate.ticket('storage').bytes).toBe(MAX_STORAGE_REQUEST_BYTES);
  });

  it('halves size and window on a timeout, and rests a peer that only times out', () => {
    const rate = new PeerRate();
    for (let i = 0; i < 40; i++) rate.answered('accounts', rate.ticket('accounts').bytes, MAX_REQUEST_BYTES, 1_000);
    const grown = rate.ticket('accounts').bytes;
    expect(grown).toBeGreaterThan(INITIAL_REQUEST_BYTES);
    const before = rate.window;
    rate.timedOut('accounts');
    expect(rate.ticket('accounts').bytes).toBe(Math.round(grown / 2));
    expect(rate.window).toBe(Math.max(1, Math.floor(before / 2)));
    expect(rate.resting()).toBe(false);
    for (let i = 0; i < 10; i++) rate.timedOut('accounts');
    expect(rate.ticket('accounts').bytes).toBe(MIN_REQUEST_BYTES);
    expect(rate.window).toBe(1);
    expect(rate.resting()).toBe(true);
  });
});

describe('MemoryGuard', () => {
  it('caps requests in flight near and over the ceiling', () => {
    let rss = 100;
    const guard = new MemoryGuard(1_000, () => rss);
    expect(guard.requestCap(3)).toBeUndefined();
    rss = 900;
    const near = new MemoryGuard(1_000, () => rss);
    expect(near.requestCap(3)).toBe(3);
    rss = 990;
    const over = new MemoryGuard(1_000, () => rss);
    expect(over.requestCap(3)).toBe(1);
  });
});

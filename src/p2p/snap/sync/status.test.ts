import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type SnapRecord, splitKeySpace } from './record.js';
import { type SnapStatus, SnapProgressView } from './status.js';

function record(): SnapRecord {
  const ref = { number: 100n, hash: new Uint8Array(32), td: 0n };
  return {
    phase: 'headers',
    pivot: ref,
    headerTip: { ...ref, number: 0n },
    chunks: splitKeySpace(4),
    counters: { accounts: 0, slots: 0, codes: 0, healed: 0 },
  };
}

describe('SnapProgressView', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends a new phase at once and the last counts of a burst after at most a second', () => {
    const sent: (SnapStatus | null)[] = [];
    const lines: Record<string, unknown>[] = [];
    const view = new SnapProgressView({ info: (_m, f) => lines.push(f ?? {}) }, 5_000, (s) => sent.push(s));
    const r = record();
    view.start(r);
    expect(sent.at(-1)?.phase).toBe('headers');
    // The header chain reaches the pivot and the account phase begins: eth_syncing must say so at once,
    // before any account has arrived (it showed "headers" for minutes while every range request timed out).
    r.headerTip = { ...r.pivot };
    r.phase = 'accounts';
    view.update(r);
    expect(sent.at(-1)).toMatchObject({ phase: 'accounts', headers: 100n, accounts: 0 });
    // Counts within the same second are held back, but the last of them goes out when the second is over.
    const count = sent.length;
    r.counters.accounts = 10;
    view.update(r);
    r.counters.accounts = 20;
    view.update(r);
    expect(sent.length).toBe(count);
    vi.advanceTimersByTime(1_000);
    expect(sent.at(-1)).toMatchObject({ phase: 'accounts', accounts: 20 });
    // The progress line of the phase: its rate, and an ETA from the share of the key space covered.
    r.counters.accounts = 1_020;
    r.chunks[0]!.next = r.chunks[0]!.last;
    view.update(r);
    vi.advanceTimersByTime(4_000);
    const line = lines.at(-1)!;
    expect(line).toMatchObject({ phase: 'accounts', accountsPerSecond: 204, accountSpacePercent: 25 });
    expect(line.etaSeconds).toBe(15);
    view.stop();
    expect(sent.at(-1)).toBeNull();
  });
});

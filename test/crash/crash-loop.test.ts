/**
 * The short crash loop (issue 14): a node SIGKILLed once during bulk mining, once during a send burst, once during
 * sync from a peer and once during a reorganisation, restarted on the same datadir each time, and checked offline
 * (index entries, head, state) and online (head, receipts, logs, sync, a new block on top), half of the kills with
 * write-behind (the dev default), half with durable writes. `npm run crashloop` runs the same loop with 50 kills and
 * larger loads.
 */
import { describe, expect, it } from 'vitest';
import { formatReport, runCrashLoop } from '../../scripts/crashloop/loop.js';

describe('crash loop', () => {
  it('survives SIGKILLs during mining, sends, sync and a reorg with every check passing', async () => {
    const report = await runCrashLoop({ kills: 4, seed: 14, quick: true });
    const text = formatReport(report);
    expect(report.perScenario, text).toEqual({ mining: 1, sends: 1, sync: 1, reorg: 1 });
    expect(report.checks.failed, text).toBe(0);
    // Every kill ran the offline checker and the online checks.
    expect(report.checks.byName['offline-log-index']?.passed, text).toBe(4);
    expect(report.checks.byName.receipts?.passed, text).toBe(4);
    expect(report.checks.byName.continues?.passed, text).toBe(4);
    expect(report.receipts.tracked, text).toBeGreaterThan(0);
    // Kills 1 and 3 hit a victim writing behind (the dev default), 2 and 4 one with durable writes.
    expect(report.writeBehindKills, text).toBe(2);
  }, 150_000);
});

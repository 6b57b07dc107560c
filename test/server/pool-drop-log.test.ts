/**
 * The pool's drops in the log (issue 37, item 8): each transaction the pool's bounds let go gets an info line with
 * hash, sender, nonce and reason; a burst folds past the window's budget into one summary line that counts the rest
 * by reason; drops the user caused (replaced, stale, removed) and mined ones stay out of info.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { ChainEngine, PooledTx, TxDroppedEvent } from '../../src/chain/index.js';
import type { Logger } from '../../src/node/logger.js';
import { logPoolDrops } from '../../src/node/pool-drop-log.js';

type Line = { level: string; msg: string; fields?: Record<string, unknown> };

function setup(maxLines: number) {
  const lines: Line[] = [];
  const log = {
    debug: (msg: string, fields?: Record<string, unknown>) => lines.push({ level: 'debug', msg, fields }),
    info: (msg: string, fields?: Record<string, unknown>) => lines.push({ level: 'info', msg, fields }),
    warn: () => {},
    error: () => {},
  } as unknown as Logger;
  const pool = new EventEmitter();
  // A window no test outlives: the summary is written at close.
  const dropLog = logPoolDrops({ pool } as unknown as ChainEngine, log, { windowMs: 3_600_000, maxLines });
  const drop = (nonce: number, reason: TxDroppedEvent['reason']) =>
    pool.emit('tx:dropped', {
      tx: { hashHex: `0x${nonce.toString(16).padStart(64, '0')}`, senderHex: '0xab', nonce: BigInt(nonce) } as PooledTx,
      reason,
      detail: `${reason}: because`,
    });
  return { lines, drop, dropLog, pool };
}

describe('pool drop log', () => {
  it('logs each expiry and eviction with hash, sender, nonce and reason', () => {
    const { lines, drop } = setup(5);
    drop(1, 'expired');
    drop(2, 'evicted');
    expect(lines).toEqual([
      {
        level: 'info',
        msg: 'transaction dropped from the pool',
        fields: {
          hash: `0x${'1'.padStart(64, '0')}`,
          sender: '0xab',
          nonce: '1',
          reason: 'expired',
          detail: 'expired: because',
        },
      },
      {
        level: 'info',
        msg: 'transaction dropped from the pool',
        fields: {
          hash: `0x${'2'.padStart(64, '0')}`,
          sender: '0xab',
          nonce: '2',
          reason: 'evicted',
          detail: 'evicted: because',
        },
      },
    ]);
  });

  it('folds a burst past the budget into one line counting the rest by reason', () => {
    const { lines, drop, dropLog } = setup(3);
    for (let i = 0; i < 10; i++) drop(i, i % 2 === 0 ? 'expired' : 'evicted');
    expect(lines.filter((l) => l.level === 'info')).toHaveLength(3);
    dropLog.close();
    expect(lines).toHaveLength(4);
    expect(lines[3]).toMatchObject({
      level: 'info',
      msg: 'more transactions dropped from the pool',
      fields: { count: '7', expired: '3', evicted: '4' },
    });
  });

  it("keeps the user's own drops and mined ones out of info, and stops listening when closed", () => {
    const { lines, drop, dropLog, pool } = setup(5);
    for (const reason of ['replaced', 'stale', 'removed', 'cleared', 'mined'] as const) drop(1, reason);
    expect(lines.filter((l) => l.level === 'info')).toEqual([]);
    expect(lines.map((l) => l.fields?.reason)).toEqual(['replaced', 'stale', 'removed', 'cleared']);
    dropLog.close();
    expect(pool.listenerCount('tx:dropped')).toBe(0);
  });
});

/**
 * The pool's own drops at info: a transaction the node acknowledged leaves the pool unmined only by the pool's
 * bounds (queued longer than its lifetime: `expired`; pushed out of a full pool by a better-paying one:
 * `evicted`), and never silently. Each gets a line with hash, sender, nonce and the reason in words; when many go
 * at once (a lifetime sweep, a flood), the lines of a window stop at `maxLines` and one summary line counts the
 * rest. svc_getDroppedTransaction answers the same reason afterwards (the pool keeps the last drops).
 *
 * Drops the sender or the dev controls caused (replaced, stale, removed, cleared) are the user's own doing and
 * mined ones have a receipt: they go at debug.
 */
import type { ChainEngine, TxDroppedEvent } from '../chain/index.js';
import type { Logger } from './logger.js';

export interface PoolDropLogOptions {
  /** The window lines are counted in (default 1 s). */
  readonly windowMs?: number;
  /** Lines per window before the rest fold into one summary line (default 5). */
  readonly maxLines?: number;
}

export interface PoolDropLog {
  /** Writes the pending summary, if any, and stops listening. */
  close(): void;
}

const POOL_LIMIT_REASONS: ReadonlySet<string> = new Set(['expired', 'evicted']);

export function logPoolDrops(engine: ChainEngine, log: Logger, opts: PoolDropLogOptions = {}): PoolDropLog {
  const windowMs = opts.windowMs ?? 1000;
  const maxLines = opts.maxLines ?? 5;
  let windowStart = 0;
  let lines = 0;
  /** Drops past the window's line budget, by reason, written as one line when the window ends. */
  let folded = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (folded.size === 0) return;
    let count = 0;
    for (const n of folded.values()) count += n;
    log.info('more transactions dropped from the pool', {
      count: String(count),
      ...Object.fromEntries([...folded].map(([reason, n]) => [reason, String(n)])),
      hint: 'svc_getDroppedTransaction tells why for a hash',
    });
    folded = new Map();
  };

  const onDropped = ({ tx, reason, detail }: TxDroppedEvent) => {
    const fields = { hash: tx.hashHex, sender: tx.senderHex, nonce: tx.nonce.toString(), reason, detail };
    if (!POOL_LIMIT_REASONS.has(reason)) {
      if (reason !== 'mined') log.debug('transaction left the pool', fields);
      return;
    }
    const now = Date.now();
    if (now - windowStart >= windowMs) {
      flush();
      windowStart = now;
      lines = 0;
    }
    if (lines < maxLines) {
      lines++;
      log.info('transaction dropped from the pool', fields);
      return;
    }
    folded.set(reason, (folded.get(reason) ?? 0) + 1);
    if (timer === undefined) {
      timer = setTimeout(flush, windowStart + windowMs - now);
      timer.unref();
    }
  };

  engine.pool.on('tx:dropped', onDropped);
  return {
    close() {
      engine.pool.off('tx:dropped', onDropped);
      flush();
    },
  };
}

/**
 * The engine's log services, wired to the chain and the pool: eth_getLogs-style queries over the log
 * index, the filter manager (polled filters and push subscriptions) fed by head changes and pool
 * arrivals, and account history over the address index. Kept out of engine.ts so the engine facade
 * only gains one member.
 */
import type { Block } from '@ethereumjs/block';
import type { Blockchain } from '../blockchain/blockchain.js';
import { attachFilters } from '../filters/chain-wiring.js';
import type { FilterManager } from '../filters/filter-manager.js';
import { AccountHistory } from '../history/account-history.js';
import { chainLogSource } from '../filters/chain-source.js';
import { LogQueries } from '../logs/query.js';
import { RecentLogPostings } from '../logs/recent-postings.js';
import { historyNotHeldMessage } from '../history/backfill-store.js';
import type { TxAddedEvent } from '../txpool/events.js';
import type { TxPool } from '../txpool/txpool.js';
import type { PooledTx } from '../txpool/pooled-tx.js';

export interface LogServiceOptions {
  /** Widest block range of one log query. Default 10,000. */
  readonly maxBlockRange?: number;
  /** Most logs one query returns. Default 10,000. */
  readonly maxResults?: number;
  /** Idle time after which a polled filter is removed. Default 5 minutes. */
  readonly filterTimeoutMs?: number;
  /** Most polled filters held at once. Default 10,000. */
  readonly maxFilters?: number;
  /** Widest block range of one account-history query. Default 1,000. */
  readonly accountHistoryMaxBlocks?: number;
  /** Failures of filter head processing (the stream carries on). */
  readonly onError?: (error: unknown) => void;
}

export interface EngineLogs {
  readonly queries: LogQueries;
  readonly filters: FilterManager<Block>;
  readonly history: AccountHistory;
  /** Stops following the chain and the pool; drops every filter and subscription. */
  detach(): void;
}

export function attachLogServices(chain: Blockchain, pool: TxPool, opts: LogServiceOptions = {}): EngineLogs {
  const recent = RecentLogPostings.follow(chain.logIndex);
  // A failed start-up read (the database closed under it) leaves the floor unknown: queries read LevelDB alone.
  recent.ready.catch(() => undefined);
  const queries = new LogQueries({
    source: chainLogSource(chain),
    index: chain.logIndex,
    recent: recent.postings,
    historyGap: (from, to) => {
      const first = chain.history.firstLacking(from, to);
      return first === undefined ? undefined : historyNotHeldMessage(first, chain.history.frontier()!);
    },
    ...(opts.maxBlockRange !== undefined ? { maxBlockRange: opts.maxBlockRange } : {}),
    ...(opts.maxResults !== undefined ? { maxResults: opts.maxResults } : {}),
  });
  // Only executable transactions count as pending (as in geth): those accepted as pending, and queued ones
  // once their nonce gap closes.
  const filters = attachFilters(chain, queries, {
    ...(opts.filterTimeoutMs !== undefined ? { timeoutMs: opts.filterTimeoutMs } : {}),
    ...(opts.maxFilters !== undefined ? { maxFilters: opts.maxFilters } : {}),
    ...(opts.onError !== undefined ? { onError: opts.onError } : {}),
  });
  const onAdded = (event: TxAddedEvent) => {
    if (event.status === 'pending') filters.manager.onPendingTransaction(event.tx.hash);
  };
  const onPromoted = (tx: PooledTx) => filters.manager.onPendingTransaction(tx.hash);
  pool.on('tx:added', onAdded);
  pool.on('tx:promoted', onPromoted);
  const history = new AccountHistory(chain, chain.logIndex, opts.accountHistoryMaxBlocks);
  return {
    queries,
    filters: filters.manager,
    history,
    detach() {
      recent.postings.detach();
      pool.off('tx:added', onAdded);
      pool.off('tx:promoted', onPromoted);
      filters.detach();
    },
  };
}

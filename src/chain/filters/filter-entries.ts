/** What the filter manager (filter-manager.ts) holds per polled filter, subscription and log watcher. */
import type { LogFilterSpec } from './filter-manager.js';
import type { Log } from '../logs/types.js';
import type { PolledBuffer } from './polled-buffer.js';
import type { CriteriaGroup } from './watcher-index.js';

/** Anything that receives the logs of new (and reorganised) blocks. */
export interface LogWatcher {
  readonly group: CriteriaGroup<LogWatcher>;
  readonly fromBlock?: bigint;
  readonly toBlock?: bigint;
  /** Every canonical block at this height or above has been delivered to this watcher. */
  since: bigint;
  active: boolean;
  /** `logs` is shared with the other watchers of the group: never modified, kept only by reference. */
  deliver(logs: readonly Log[], block: bigint): void;
}

export interface PolledFilterBase {
  readonly id: bigint;
  lastPoll: number;
}
export interface LogFilter extends PolledFilterBase {
  readonly kind: 'logs';
  readonly spec: LogFilterSpec;
  readonly watcher: LogWatcher;
  readonly buffer: PolledBuffer<Log>;
}
export interface HashFilter extends PolledFilterBase {
  readonly kind: 'blocks' | 'transactions';
  readonly buffer: PolledBuffer<Uint8Array>;
}
export type PolledFilter = LogFilter | HashFilter;

export type SubscriptionEntry<B> =
  | { readonly kind: 'newHeads'; readonly listener: (block: B) => void }
  | { readonly kind: 'logs'; readonly watcher: LogWatcher }
  | { readonly kind: 'newPendingTransactions'; readonly listener: (hash: Uint8Array) => void };

/**
 * Polled filters (eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter) and push
 * subscriptions (for eth_subscribe) over the chain's head changes and the pool's new transactions.
 *
 * Head changes are processed one at a time, in the order the chain announced them, so every filter
 * and subscription sees one consistent history: logs of added blocks, and after a reorganisation the
 * logs of dropped blocks again with `removed: true`. A watcher only gets `removed` copies of logs it
 * was given: it remembers `since`, the lowest height from which it has seen every canonical block.
 *
 * Polled filters expire after `timeoutMs` without a poll and buffer at most `maxBufferedChanges`
 * items; subscriptions live until their owner (a WebSocket connection) unsubscribes.
 *
 * Cost per block is kept independent of how many watchers are idle: head changes are processed on a
 * later turn of the event loop (`setImmediate`), not on the import's own path; a block's logs are
 * decoded once and matched through a `WatcherIndex` (watchers grouped by identical criteria, indexed
 * by address and first topic); a polled filter keeps a reference to its group's matches and only
 * copies them out when polled.
 */
import { logsOfBlock } from '../logs/block-logs.js';
import { bytesEqual } from '../logs/match.js';
import type { LogQueries } from '../logs/query.js';
import type { Log, LogCriteria, LogSource } from '../logs/types.js';
import { FilterLimitError, FilterNotFoundError, FilterOverflowError } from './errors.js';
import { randomId } from './ids.js';
import { PolledBuffer } from './polled-buffer.js';
import type { HashFilter, LogWatcher, PolledFilter, SubscriptionEntry } from './filter-entries.js';
import { WatcherIndex } from './watcher-index.js';

/** What the manager needs of a block in a head event: ethereumjs `Block` satisfies it. */
export interface HeadBlock {
  hash(): Uint8Array;
  readonly header: { readonly number: bigint; readonly parentHash: Uint8Array; readonly logsBloom: Uint8Array };
}

/** The chain's `reorg` event: `dropped` highest first, `added` lowest first. */
export interface HeadReorg<B extends HeadBlock> {
  readonly dropped: readonly B[];
  readonly added: readonly B[];
  readonly commonAncestor: B;
}

/** An eth_newFilter filter with resolved heights; an undefined bound follows the head ("latest"). */
export interface LogFilterSpec extends LogCriteria {
  readonly fromBlock?: bigint;
  readonly toBlock?: bigint;
}

export interface FilterManagerOptions<B extends HeadBlock> {
  readonly source: LogSource;
  /** Answers getFilterLogs, with the node's log query limits. */
  readonly queries: LogQueries;
  /** A stored block by hash: recovers blocks a head change jumped over (a rewind, then a longer side chain). */
  readonly blockByHash: (hash: Uint8Array) => Promise<B | undefined>;
  /** The head when the manager starts; without it the first head event is taken as the only new block. */
  readonly initialHead?: B;
  /** Idle time after which a polled filter is removed; every poll resets it. Default 5 minutes. */
  readonly timeoutMs?: number;
  /** Most polled filters held at once. Default 10,000. */
  readonly maxFilters?: number;
  /** Most items (logs, hashes) one polled filter holds between polls. Default 10,000. */
  readonly maxBufferedChanges?: number;
  /** How often expired filters are swept away. Default min(timeoutMs, 60 s). */
  readonly sweepIntervalMs?: number;
  /** Milliseconds clock, for tests. Default `Date.now`. */
  readonly now?: () => number;
  /** Failures of head processing or of subscription listeners (the manager carries on). Default: ignored. */
  readonly onError?: (error: unknown) => void;
}

export type FilterKind = 'logs' | 'blocks' | 'transactions';

/** What eth_getFilterChanges returns, by filter kind. */
export type FilterChanges =
  | { readonly kind: 'logs'; readonly logs: Log[] }
  | { readonly kind: 'blocks'; readonly hashes: Uint8Array[] }
  | { readonly kind: 'transactions'; readonly hashes: Uint8Array[] };

export interface Subscription {
  readonly id: bigint;
  /** False if it was already gone. */
  unsubscribe(): boolean;
}

/** Resolves on the event loop's next check phase: after the I/O callbacks (an import's next step) already due. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

export class FilterManager<B extends HeadBlock = HeadBlock> {
  readonly timeoutMs: number;
  readonly maxFilters: number;
  readonly maxBufferedChanges: number;
  private readonly filters = new Map<bigint, PolledFilter>();
  private readonly subscriptions = new Map<bigint, SubscriptionEntry<B>>();
  /** The same filters and subscriptions again, by what they receive, so each event visits only its own. */
  private readonly watchers = new Set<LogWatcher>();
  private readonly index = new WatcherIndex<LogWatcher>();
  private readonly hashFilters = { blocks: new Set<HashFilter>(), transactions: new Set<HashFilter>() };
  private readonly headListeners = new Set<(block: B) => void>();
  private readonly pendingListeners = new Set<(hash: Uint8Array) => void>();
  private head: { number: bigint; hash: Uint8Array } | undefined;
  /** Head changes, processed strictly in order. */
  private queue: Promise<void> = Promise.resolve();
  /** Tasks in `queue` not finished yet. */
  private queued = 0;
  private readonly sweeper: NodeJS.Timeout;
  private readonly now: () => number;

  constructor(private readonly opts: FilterManagerOptions<B>) {
    this.timeoutMs = positiveInteger('timeoutMs', opts.timeoutMs ?? 5 * 60_000);
    this.maxFilters = positiveInteger('maxFilters', opts.maxFilters ?? 10_000);
    this.maxBufferedChanges = positiveInteger('maxBufferedChanges', opts.maxBufferedChanges ?? 10_000);
    this.now = opts.now ?? Date.now;
    if (opts.initialHead !== undefined)
      this.head = { number: opts.initialHead.header.number, hash: opts.initialHead.hash() };
    const sweepEvery = positiveInteger('sweepIntervalMs', opts.sweepIntervalMs ?? Math.min(this.timeoutMs, 60_000));
    this.sweeper = setInterval(() => this.sweep(), sweepEvery);
    this.sweeper.unref();
  }

  /** Stops the sweeper and drops every filter and subscription. */
  close(): void {
    clearInterval(this.sweeper);
    this.filters.clear();
    this.subscriptions.clear();
    for (const w of this.watchers) w.active = false;
    this.watchers.clear();
    this.index.clear();
    this.hashFilters.blocks.clear();
    this.hashFilters.transactions.clear();
    this.headListeners.clear();
    this.pendingListeners.clear();
  }

  get filterCount(): number {
    return this.filters.size;
  }

  get subscriptionCount(): number {
    return this.subscriptions.size;
  }

  // ------------------------------------------------------------------ feeds

  /**
   * The chain's `newHead` event. Delivery waits for a later turn of the event loop so the chain's import
   * (which emits synchronously) is not held up by fan-out; the queue keeps the announced order. A head announced
   * before the queued move to an earlier one starts joins it (advanceTo delivers the blocks between by their
   * parents): a bulk run's ~100 heads a turn cost one task, not 100.
   */
  onNewHead(block: B): void {
    if (this.queued === 0 && !this.delivering()) {
      // Nothing queued and nobody to deliver to: what advanceTo would do a turn later, without the task, its
      // promises and the immediate (~10 µs of each block's import turn, profiled). A filter or subscription made
      // from now on is made after this head either way (they are made in order with the queued head changes).
      this.head = { number: block.header.number, hash: block.hash() };
      return;
    }
    if (this.waitingAdvance !== undefined) return void (this.waitingAdvance.block = block);
    const advance = (this.waitingAdvance = { block });
    this.enqueue(async () => {
      await nextTurn();
      if (this.waitingAdvance === advance) this.waitingAdvance = undefined;
      await this.advanceTo(advance.block);
    });
  }
  private waitingAdvance: { block: B } | undefined; // the queued head move not started yet

  /** The chain's `reorg` event (it precedes the matching `newHead`). */
  onReorg(event: HeadReorg<B>): void {
    this.waitingAdvance = undefined; // later heads come after the reorg: a move of their own
    this.enqueue(async () => {
      await nextTurn();
      await this.reorganise(event);
    });
  }

  /** The pool's `tx:added` event: a transaction entered the pending set. */
  onPendingTransaction(hash: Uint8Array): void {
    for (const f of this.hashFilters.transactions) f.buffer.push(hash);
    for (const listener of this.pendingListeners) this.call(listener, hash);
  }

  /** Resolves once every head change announced so far has been delivered. */
  settled(): Promise<void> {
    return this.queue;
  }

  // ------------------------------------------------------------------ polled filters

  /**
   * Installs a log filter. Like every installation it takes effect in order with the head changes
   * announced before the call, so it reports exactly the blocks that come after them.
   */
  newLogFilter(spec: LogFilterSpec): Promise<bigint> {
    return this.inOrder(() => {
      const id = this.reserveId();
      const buffer = new PolledBuffer<Log>(this.maxBufferedChanges);
      const watcher = this.addWatcher(spec, spec.fromBlock, spec.toBlock, (logs, block) =>
        buffer.pushShared(logs, block),
      );
      this.filters.set(id, { kind: 'logs', id, spec, watcher, buffer, lastPoll: this.now() });
      return id;
    });
  }

  newBlockFilter(): Promise<bigint> {
    return this.inOrder(() => this.newHashFilter('blocks'));
  }

  newPendingTransactionFilter(): Promise<bigint> {
    return this.inOrder(() => this.newHashFilter('transactions'));
  }

  /** What the filter collected since the last poll (which this call becomes). Throws FilterNotFoundError or FilterOverflowError. */
  async changes(id: bigint): Promise<FilterChanges> {
    await this.settled();
    const filter = this.live(id);
    filter.lastPoll = this.now();
    const overflow = filter.buffer.overflowed;
    if (overflow !== undefined) {
      this.remove(id);
      throw new FilterOverflowError(id, this.maxBufferedChanges, overflow.block);
    }
    if (filter.kind === 'logs') return { kind: 'logs', logs: filter.buffer.drain() };
    return { kind: filter.kind, hashes: filter.buffer.drain() };
  }

  /**
   * Every log the filter's range holds now (eth_getFilterLogs), subject to the query limits; [] for
   * block and transaction filters. Resets the idle timer, does not move the poll point.
   */
  async filterLogs(id: bigint): Promise<Log[]> {
    const filter = this.live(id);
    filter.lastPoll = this.now();
    if (filter.kind !== 'logs') return [];
    const head = this.opts.source.headNumber();
    const { fromBlock, toBlock, ...criteria } = filter.spec;
    return this.opts.queries.queryLogs({ ...criteria, fromBlock: fromBlock ?? head, toBlock: toBlock ?? head });
  }

  /** Removes a filter; false if the id names none (or it had expired). */
  uninstall(id: bigint): boolean {
    const filter = this.filters.get(id);
    if (filter === undefined) return false;
    const expired = this.isExpired(filter);
    this.remove(id);
    return !expired;
  }

  /** Which kind of filter `id` is, if installed. */
  kindOf(id: bigint): FilterKind | undefined {
    const filter = this.filters.get(id);
    return filter === undefined || this.isExpired(filter) ? undefined : filter.kind;
  }

  /** Removes the filters idle for longer than the timeout. Runs on a timer; callable directly. */
  sweep(): void {
    for (const [id, filter] of this.filters) if (this.isExpired(filter)) this.remove(id);
  }

  // ------------------------------------------------------------------ subscriptions

  /** Every new canonical block, lowest first (all blocks a reorganisation adds). */
  subscribeNewHeads(listener: (block: B) => void): Promise<Subscription> {
    return this.inOrder(() => {
      // A Set holds a function once: wrap it so the same listener can back two subscriptions.
      const own = (block: B) => listener(block);
      this.headListeners.add(own);
      return this.addSubscription({ kind: 'newHeads', listener: own });
    });
  }

  /** Logs of new blocks matching `criteria`, and their `removed: true` copies when a reorganisation drops them. */
  subscribeLogs(criteria: LogCriteria, listener: (log: Log) => void): Promise<Subscription> {
    return this.subscribeLogBatches(criteria, (logs) => {
      for (const log of logs) this.call(listener, log);
    });
  }

  /**
   * `subscribeLogs` by block: one call per block with its matching logs in order. The array is shared
   * with every subscriber of the same criteria (so per-block work on it can be done once): never modify it.
   */
  subscribeLogBatches(criteria: LogCriteria, listener: (logs: readonly Log[]) => void): Promise<Subscription> {
    return this.inOrder(() => {
      const watcher = this.addWatcher(criteria, undefined, undefined, (logs) => this.call(listener, logs));
      return this.addSubscription({ kind: 'logs', watcher });
    });
  }

  /** Hashes of transactions entering the pool. */
  subscribePendingTransactions(listener: (hash: Uint8Array) => void): Promise<Subscription> {
    return this.inOrder(() => {
      // A Set holds a function once: wrap it so the same listener can back two subscriptions.
      const own = (hash: Uint8Array) => listener(hash);
      this.pendingListeners.add(own);
      return this.addSubscription({ kind: 'newPendingTransactions', listener: own });
    });
  }

  unsubscribe(id: bigint): boolean {
    const entry = this.subscriptions.get(id);
    if (entry === undefined) return false;
    this.subscriptions.delete(id);
    if (entry.kind === 'logs') this.removeWatcher(entry.watcher);
    else if (entry.kind === 'newHeads') this.headListeners.delete(entry.listener);
    else this.pendingListeners.delete(entry.listener);
    return true;
  }

  // ------------------------------------------------------------------ internals

  private reserveId(): bigint {
    if (this.filters.size >= this.maxFilters) this.sweep();
    if (this.filters.size >= this.maxFilters) throw new FilterLimitError(this.maxFilters);
    return randomId((id) => this.filters.has(id) || this.subscriptions.has(id));
  }

  private newHashFilter(kind: 'blocks' | 'transactions'): bigint {
    const id = this.reserveId();
    const filter: HashFilter = {
      kind,
      id,
      buffer: new PolledBuffer<Uint8Array>(this.maxBufferedChanges),
      lastPoll: this.now(),
    };
    this.filters.set(id, filter);
    this.hashFilters[kind].add(filter);
    return id;
  }

  private addSubscription(entry: SubscriptionEntry<B>): Subscription {
    const id = randomId((taken) => this.filters.has(taken) || this.subscriptions.has(taken));
    this.subscriptions.set(id, entry);
    return { id, unsubscribe: () => this.unsubscribe(id) };
  }

  private addWatcher(
    criteria: LogCriteria,
    fromBlock: bigint | undefined,
    toBlock: bigint | undefined,
    deliver: (logs: readonly Log[], block: bigint) => void,
  ): LogWatcher {
    const since = this.head === undefined ? 0n : this.head.number + 1n; // blocks up to the head were never delivered to it
    const watcher = this.index.add(criteria, (group) => ({
      group,
      ...(fromBlock !== undefined ? { fromBlock } : {}),
      ...(toBlock !== undefined ? { toBlock } : {}),
      since,
      active: true,
      deliver,
    }));
    this.watchers.add(watcher);
    return watcher;
  }

  private removeWatcher(watcher: LogWatcher): void {
    watcher.active = false;
    this.watchers.delete(watcher);
    this.index.remove(watcher.group, watcher);
  }

  private live(id: bigint): PolledFilter {
    const filter = this.filters.get(id);
    if (filter === undefined) throw new FilterNotFoundError(id);
    if (this.isExpired(filter)) {
      this.remove(id);
      throw new FilterNotFoundError(id);
    }
    return filter;
  }

  private isExpired(filter: PolledFilter): boolean {
    return this.now() - filter.lastPoll > this.timeoutMs;
  }

  private remove(id: bigint): void {
    const filter = this.filters.get(id);
    if (filter === undefined) return;
    this.filters.delete(id);
    if (filter.kind === 'logs') this.removeWatcher(filter.watcher);
    else this.hashFilters[filter.kind].delete(filter);
  }

  /** Whether a head change has anyone to go to: log watchers, block filters, newHeads subscribers. */
  private delivering(): boolean {
    return this.watchers.size > 0 || this.hashFilters.blocks.size > 0 || this.headListeners.size > 0;
  }

  /** Runs `task` after every head change announced so far (and before any announced later). */
  private inOrder<T>(task: () => T | Promise<T>): Promise<T> {
    this.queued++;
    const run = this.queue.then(task);
    const done = () => {
      this.queued--;
    };
    this.queue = run.then(done, done);
    return run;
  }

  private enqueue(task: () => Promise<void>): void {
    this.inOrder(task).catch((error: unknown) => this.opts.onError?.(error));
  }

  /** Runs a subscriber's listener; one failing listener must not stop delivery to the others. */
  private call<T>(listener: (value: T) => void, value: T): void {
    try {
      listener(value);
    } catch (error) {
      this.opts.onError?.(error);
    }
  }

  private async advanceTo(block: B): Promise<void> {
    const hash = block.hash();
    const head = this.head;
    if (head !== undefined && bytesEqual(head.hash, hash)) return; // already delivered with its reorg
    if (!this.delivering()) {
      // Nobody to deliver to: the blocks in between are not read (a bulk run of empty blocks brings ~100 at once).
      this.head = { number: block.header.number, hash };
      return;
    }
    // Normally one new block; after a rewind the new head may bring stored ancestors with it.
    const added: B[] = [block];
    if (head !== undefined) {
      let cursor = block;
      while (cursor.header.number > head.number + 1n && !bytesEqual(cursor.header.parentHash, head.hash)) {
        const parent = await this.opts.blockByHash(cursor.header.parentHash);
        if (parent === undefined) break;
        added.unshift(parent);
        cursor = parent;
      }
    }
    for (const b of added) await this.deliverAdded(b);
  }

  private async reorganise(event: HeadReorg<B>): Promise<void> {
    const dropped = [...event.dropped].sort((a, b) => (a.header.number < b.header.number ? -1 : 1));
    for (const b of dropped) await this.deliverLogs(b, true);
    // Every canonical block above the common ancestor will be delivered anew.
    const ancestor = event.commonAncestor.header.number;
    for (const w of this.watchers) if (w.since > ancestor + 1n) w.since = ancestor + 1n;
    this.head = { number: ancestor, hash: event.commonAncestor.hash() };
    for (const b of event.added) await this.deliverAdded(b);
  }

  private async deliverAdded(block: B): Promise<void> {
    const hash = block.hash();
    const number = block.header.number;
    for (const f of this.hashFilters.blocks) f.buffer.push(hash, number);
    for (const listener of this.headListeners) this.call(listener, block);
    await this.deliverLogs(block, false);
    this.head = { number, hash };
  }

  /** Reads and decodes the block's logs once, only if some watcher's criteria may match its bloom. */
  private async deliverLogs(block: B, removed: boolean): Promise<void> {
    const number = block.header.number;
    if (this.watchers.size === 0 || !this.index.mayMatchBloom(block.header.logsBloom)) return;
    const receipts = await this.opts.source.blockReceipts(block.hash()).catch((error: unknown) => {
      this.opts.onError?.(error);
      return undefined;
    });
    if (receipts === undefined) {
      // Should not happen (receipts are stored with the block); report it and keep the stream going.
      this.opts.onError?.(new Error(`receipts of block ${number} are missing; its logs were not delivered`));
      return;
    }
    for (const [group, matching] of this.index.match(logsOfBlock(receipts, undefined, removed))) {
      for (const w of group.members) {
        if (!w.active || w.since > number) continue;
        if ((w.fromBlock !== undefined && number < w.fromBlock) || (w.toBlock !== undefined && number > w.toBlock))
          continue;
        w.deliver(matching, number);
      }
    }
  }
}

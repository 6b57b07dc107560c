/**
 * eth_getLogs on the engine: a canonical block range or one block by hash, bounded by a maximum block
 * range and a maximum result count so that no query can exhaust the node.
 *
 * With a log index, only the blocks the index names are read; without one (a database not indexed),
 * each canonical block's header bloom is checked before its receipts are read.
 */
import { BlockLogCache } from './block-log-cache.js';
import { logsOfBlock } from './block-logs.js';
import { HistoryNotHeldError, LimitExceededError, UnknownBlockError } from './errors.js';
import { type IndexCandidate, LogIndex, type LogIndexReader } from './log-index.js';
import { bloomMayMatch, bytesEqual, compileCriteria, type CompiledCriteria, matchesLog } from './match.js';
import type { RecentLogPostings } from './recent-postings.js';
import type { Log, LogQuery, LogSource, RangeLogQuery } from './types.js';

/** The most candidate blocks one query reads in the request's turn (the async path takes the rest). */
const SYNC_CANDIDATE_LIMIT = 256;

export interface LogQueryLimits {
  /** Widest block range (toBlock - fromBlock + 1) one query may span. Default 10,000. */
  readonly maxBlockRange?: number;
  /** Most logs one query may return. Default 10,000. */
  readonly maxResults?: number;
}

export interface LogQueryOptions extends LogQueryLimits {
  readonly source: LogSource;
  /** Key reads on the database holding the log index (`indexWrites`); without it, blooms are scanned. */
  readonly index?: LogIndexReader;
  /**
   * The index's postings of recent blocks held in memory (recent-postings.ts), fed by the same writes as `index`:
   * the part of a range at or above its floor is answered from it, without LevelDB's iterators.
   */
  readonly recent?: RecentLogPostings;
  /** Blocks read concurrently. Default 16. */
  readonly readAhead?: number;
  /** Most logs of recently queried blocks held in memory, positioned (block-log-cache.ts). Default 8,192. */
  readonly cachedLogs?: number;
  /** Why the receipts of some block of [from, to] are not held (history still being backfilled); else undefined. */
  readonly historyGap?: (from: bigint, to: bigint) => string | undefined;
}

export const DEFAULT_MAX_BLOCK_RANGE = 10_000;
export const DEFAULT_MAX_RESULTS = 10_000;

interface BlockRef {
  readonly number: bigint;
  readonly hash: Uint8Array;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

export class LogQueries {
  readonly maxBlockRange: number;
  readonly maxResults: number;
  private readonly source: LogSource;
  private readonly index: LogIndex | undefined;
  private readonly recent: RecentLogPostings | undefined;
  private readonly readAhead: number;
  private readonly historyGap: LogQueryOptions['historyGap'];
  /** Exposed for tests of the bound. */
  readonly blockLogs: BlockLogCache;

  constructor(opts: LogQueryOptions) {
    this.source = opts.source;
    this.index = opts.index === undefined ? undefined : new LogIndex(opts.index);
    this.recent = opts.index === undefined ? undefined : opts.recent;
    this.maxBlockRange = positiveInteger('maxBlockRange', opts.maxBlockRange ?? DEFAULT_MAX_BLOCK_RANGE);
    this.maxResults = positiveInteger('maxResults', opts.maxResults ?? DEFAULT_MAX_RESULTS);
    this.readAhead = positiveInteger('readAhead', opts.readAhead ?? 16);
    this.historyGap = opts.historyGap;
    this.blockLogs = new BlockLogCache(opts.cachedLogs);
  }

  /** Logs matching `query`, in chain order. Throws LimitExceededError or UnknownBlockError. */
  async queryLogs(query: LogQuery): Promise<Log[]> {
    const criteria = compileCriteria(query);
    if ('blockHash' in query) return this.inBlock(query.blockHash, criteria);
    const range = this.rangeOf(query);
    if (range === undefined) return [];
    const [from, to] = range;
    const blocks =
      this.index !== undefined
        ? await this.indexedBlocks(criteria, from, to)
        : await this.bloomScannedBlocks(criteria, from, to);
    return this.collect(blocks, criteria, from);
  }

  /**
   * `queryLogs` of a range answered in this turn, when all it reads is in memory: the range at or above the recent
   * postings' floor, the candidates' canonical hashes cached by the source, their logs in the block log cache (the
   * common case of a query over recent blocks asked again). Undefined when something would have to be read: the
   * caller then awaits `queryLogs`. The same answer and the same errors as `queryLogs`, which it shares its steps
   * with; no promise, no read window, nothing read twice.
   */
  queryLogsNow(query: LogQuery): Log[] | undefined {
    const { recent, source } = this;
    if ('blockHash' in query || recent === undefined || source.canonicalHashNow === undefined) return undefined;
    const criteria = compileCriteria(query);
    const range = this.rangeOf(query);
    if (range === undefined) return [];
    const [from, to] = range;
    const floor = recent.floor;
    if (floor === undefined || from < floor) return undefined;
    const candidates = recent.candidates(criteria, from, to);
    // A wide answer takes the async path, which yields between blocks: one turn stays short for other callers.
    if (candidates.length > SYNC_CANDIDATE_LIMIT) return undefined;
    const out: Log[] = [];
    for (let i = 0; i < candidates.length; i++) {
      const { number, hash } = candidates[i]!;
      const canonical = source.canonicalHashNow(number);
      if (canonical === undefined) return undefined;
      if (!bytesEqual(canonical, hash)) continue;
      const logs = this.blockLogs.get(hash);
      if (logs === undefined) return undefined;
      this.addMatching(out, logs, criteria, number, from);
    }
    return out;
  }

  /**
   * The range `query` asks within the chain ([from, to], `to` at most the head), undefined when empty; throws when it
   * is wider than the limit or its receipts are not all held.
   */
  private rangeOf(query: RangeLogQuery): [bigint, bigint] | undefined {
    const head = this.source.headNumber();
    const from = query.fromBlock < 0n ? 0n : query.fromBlock;
    const to = query.toBlock > head ? head : query.toBlock;
    if (from > to) return undefined;
    if (to - from + 1n > BigInt(this.maxBlockRange)) throw LimitExceededError.blockRange(this.maxBlockRange, from, to);
    const gap = this.historyGap?.(from, to);
    if (gap !== undefined) throw new HistoryNotHeldError(gap);
    return [from, to];
  }

  /** Appends the logs of block `number` that match; throws once the answer passes the result cap. */
  private addMatching(
    out: Log[],
    logs: readonly Log[],
    criteria: CompiledCriteria,
    number: bigint,
    from: bigint,
  ): void {
    for (let i = 0; i < logs.length; i++) if (matchesLog(criteria, logs[i]!)) out.push(logs[i]!);
    if (out.length > this.maxResults)
      throw LimitExceededError.results(this.maxResults, from, number > from ? number - 1n : undefined, number);
  }

  private async inBlock(hash: Uint8Array, criteria: CompiledCriteria): Promise<Log[]> {
    const header = await this.source.header(hash);
    if (header === undefined) throw new UnknownBlockError(hash);
    if (!bloomMayMatch(criteria, header.logsBloom)) return [];
    return this.collect([{ number: header.number, hash }], criteria, header.number);
  }

  /** Index candidates that are canonical. */
  private async indexedBlocks(criteria: CompiledCriteria, from: bigint, to: bigint): Promise<BlockRef[]> {
    const candidates = await this.indexCandidates(criteria, from, to);
    // The source's promises themselves, no async closure per candidate (most are answered from a cache).
    const width = this.readAhead * 4;
    const out: BlockRef[] = [];
    for (let start = 0; start < candidates.length; start += width) {
      const window = candidates.slice(start, start + width);
      const hashes = await Promise.all(window.map((c) => this.source.canonicalHash(c.number)));
      for (let i = 0; i < window.length; i++) {
        const hash = hashes[i];
        if (hash !== undefined && bytesEqual(hash, window[i]!.hash)) out.push(window[i]!);
      }
    }
    return out;
  }

  /**
   * Candidates of [from, to]: the part at or above the recent postings' floor from memory, read first (the floor only
   * rises, and what falls below it meanwhile is in LevelDB), the rest from LevelDB's keys.
   */
  private async indexCandidates(criteria: CompiledCriteria, from: bigint, to: bigint): Promise<IndexCandidate[]> {
    const floor = this.recent?.floor;
    if (floor === undefined || to < floor) return this.index!.candidates(criteria, from, to);
    const recent = this.recent!.candidates(criteria, from > floor ? from : floor, to);
    if (from >= floor) return recent;
    return [...(await this.index!.candidates(criteria, from, floor - 1n)), ...recent];
  }

  /** Canonical blocks whose header bloom may match (the fallback without an index). */
  private async bloomScannedBlocks(criteria: CompiledCriteria, from: bigint, to: bigint): Promise<BlockRef[]> {
    const numbers: bigint[] = [];
    for (let n = from; n <= to; n++) numbers.push(n);
    const refs = await this.mapWindowed(numbers, async (number): Promise<BlockRef | undefined> => {
      const hash = await this.source.canonicalHash(number);
      const header = hash === undefined ? undefined : await this.source.header(hash);
      return header !== undefined && bloomMayMatch(criteria, header.logsBloom)
        ? { number, hash: header.hash }
        : undefined;
    });
    return refs.filter((r): r is BlockRef => r !== undefined);
  }

  /**
   * The blocks' matching logs in order: each block's logs from the block log cache, or from its receipts (a window
   * of blocks read at a time, then cached); stops as soon as the result cap is passed.
   */
  private async collect(blocks: readonly BlockRef[], criteria: CompiledCriteria, from: bigint): Promise<Log[]> {
    const out: Log[] = [];
    for (let start = 0; start < blocks.length; start += this.readAhead) {
      const window = blocks.slice(start, start + this.readAhead);
      const logsPerBlock = window.map((b) => this.blockLogs.get(b.hash));
      if (logsPerBlock.includes(undefined)) await this.readMissing(window, logsPerBlock);
      for (let i = 0; i < window.length; i++)
        this.addMatching(out, logsPerBlock[i]!, criteria, window[i]!.number, from);
    }
    return out;
  }

  /** Fills the window's blocks the cache lacks from their receipts, concurrently, and caches them. */
  private async readMissing(window: readonly BlockRef[], logsPerBlock: (readonly Log[] | undefined)[]): Promise<void> {
    await Promise.all(
      window.map(async (b, i) => {
        if (logsPerBlock[i] !== undefined) return;
        const receipts = await this.source.blockReceipts(b.hash);
        // A block pruned between the index read and now has nothing to report (and is not cached).
        if (receipts === undefined) {
          logsPerBlock[i] = [];
          return;
        }
        const logs = logsOfBlock(receipts);
        this.blockLogs.set(b.hash, logs);
        logsPerBlock[i] = logs;
      }),
    );
  }

  private async mapWindowed<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
    const out: R[] = [];
    // Wider windows here: these are single small reads, mostly served by the store's caches.
    const width = this.readAhead * 4;
    for (let start = 0; start < items.length; start += width) {
      out.push(...(await Promise.all(items.slice(start, start + width).map(fn))));
    }
    return out;
  }
}

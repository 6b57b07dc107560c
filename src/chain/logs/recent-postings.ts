/**
 * The log index's postings of recent blocks, in memory: what `LogIndex.candidates` reads from LevelDB, answered
 * without a key iterator. Each iterator step is a task of LevelDB's thread pool, and an address + topic query over
 * the last 1,000 blocks took four of them in two rounds (and waited for the write-behind queue's flush when a block
 * had just been sealed): profiled on a busy machine, those round trips were most of the query's main-thread time
 * (`_nextv` ~1 ms a query), against microseconds for the same lookup here.
 *
 * It is fed by the writes themselves (`follow`: every put or delete of a log-index key, in the writer's turn,
 * before the write is queued or made), so it can never miss a block that the index holds, whichever path stored it
 * (import, backfill, a later prune's deletes). It holds every posting of every block at or above `floor`:
 * - at start, `floor` is one above the highest block the index already held (a reverse read of the 'any log'
 *   postings); until that read is done it is unknown and queries use LevelDB alone;
 * - postings of blocks below `floor` are not kept (LevelDB has them);
 * - past `maxPostings` the oldest heights are dropped, a quarter at a time, and `floor` rises above them.
 * Entries are per block hash, canonical or not, exactly as the index's keys: readers keep the canonical ones.
 */
import type { WriteOp } from '../db/chain-db.js';
import {
  highestIndexedBlock,
  type IndexCandidate,
  type LogIndexReader,
  LOG_INDEX_TAG,
  postingKeys,
} from './log-index.js';
import type { CompiledCriteria } from './match.js';

/**
 * Default bound. A posting costs a reference (~8 bytes; a block's postings share one candidate object) when its key
 * is common (an event signature, an active contract) and up to ~200 bytes when its key is its own (a Transfer's
 * sender and recipient topics): at most ~13 MiB, and ~13,000 blocks of one token transfer each.
 */
export const DEFAULT_MAX_RECENT_POSTINGS = 1 << 16;

/** The index's writes as they are made: ChainDB's `observeTable` satisfies it. */
export interface LogIndexWrites {
  /** Calls `observer` with every put and delete of a key of table `tag`; returns the unsubscribe. */
  observeTable(tag: number, observer: (op: WriteOp) => void): () => void;
}

/** One stored block with logs; shared by all its postings. */
interface BlockRef extends IndexCandidate {
  /** Its number and hash as one string (the candidate's identity). */
  readonly id: string;
}

const SUFFIX = 40;
const latin1 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

/** First index of `list` (sorted by number) in [lo, hi) whose number is >= `n` (`hi` if none). */
function lowerBound(list: readonly BlockRef[], n: bigint, lo = 0, hi = list.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.number < n) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The part [lo, hi) of a posting list that lies in a queried range. */
interface Span {
  readonly list: readonly BlockRef[];
  readonly lo: number;
  readonly hi: number;
}

/** One OR-group of a query in a range: its prefixes' spans, and their summed length (at least its block count). */
interface Group {
  readonly spans: readonly Span[];
  readonly size: number;
}

/** A group's blocks in ascending height, each once: a single span is that already (the common case, no copy). */
function members(group: Group): readonly BlockRef[] {
  if (group.spans.length === 1) {
    const { list, lo, hi } = group.spans[0]!;
    return list.slice(lo, hi);
  }
  const found = new Map<string, BlockRef>();
  for (const { list, lo, hi } of group.spans) for (let i = lo; i < hi; i++) found.set(list[i]!.id, list[i]!);
  return [...found.values()].sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : 0));
}

/** Whether a block is in the group: a binary search per span, no set built. */
function holds(group: Group, ref: BlockRef): boolean {
  for (let s = 0; s < group.spans.length; s++) {
    const { list, lo, hi } = group.spans[s]!;
    let at = lowerBound(list, ref.number, lo, hi);
    for (; at < hi && list[at]!.number === ref.number; at++) if (list[at]!.id === ref.id) return true;
  }
  return false;
}

export class RecentLogPostings {
  /** Postings by key prefix (tag, kind, value as latin1), each sorted by block number. */
  readonly #lists = new Map<string, BlockRef[]>();
  /** Blocks held, by id, with how many postings each has here. */
  readonly #blocks = new Map<string, { ref: BlockRef; postings: number }>();
  #postings = 0;
  /** undefined until the start-up read says which heights the index held before. */
  #floor: bigint | undefined;
  readonly #unsubscribe: () => void;

  private constructor(
    writes: LogIndexWrites,
    private readonly maxPostings: number,
  ) {
    this.#unsubscribe = writes.observeTable(LOG_INDEX_TAG, (op) => this.#observe(op));
  }

  /**
   * Follows the index's writes from now on; `floor` is known once the highest block already indexed has been read.
   * Rejects if that read fails (queries then keep using LevelDB alone).
   */
  static follow(
    reader: LogIndexReader & LogIndexWrites,
    maxPostings = DEFAULT_MAX_RECENT_POSTINGS,
  ): { postings: RecentLogPostings; ready: Promise<void> } {
    const postings = new RecentLogPostings(reader, maxPostings);
    const ready = highestIndexedBlock(reader).then((highest) =>
      postings.#start(highest === undefined ? 0n : highest + 1n),
    );
    return { postings, ready };
  }

  /** Every posting of every stored block at or above this height is here; undefined: not known yet. */
  get floor(): bigint | undefined {
    return this.#floor;
  }

  /** Postings held (tests watch the bound). */
  get size(): number {
    return this.#postings;
  }

  /** Stops following the writes. */
  detach(): void {
    this.#unsubscribe();
  }

  /**
   * Blocks in [from, to] (canonical or not) holding a posting of every criterion, in ascending height; `from` must be
   * at or above `floor`. The same set `LogIndex.candidates` reads from LevelDB, pruned exactly (all groups are whole).
   */
  candidates(c: CompiledCriteria, from: bigint, to: bigint): IndexCandidate[] {
    if (this.#floor === undefined || from < this.#floor)
      throw new RangeError(`recent log postings start at ${this.#floor}, asked from ${from}`);
    // Plain loops, no closure per group or block: a query over recent blocks (eth_getLogs' synchronous path) runs
    // this only a few times on a node before it answers, in the interpreter.
    const keys = postingKeys(c);
    const groups: Group[] = [];
    let smallest: Group | undefined;
    for (let g = 0; g < keys.length; g++) {
      const group = this.#group(keys[g]!, from, to);
      if (group.size === 0) return [];
      if (smallest === undefined || group.size < smallest.size) smallest = group;
      groups.push(group);
    }
    const out: BlockRef[] = [];
    const candidates = members(smallest!);
    next: for (let i = 0; i < candidates.length; i++) {
      const ref = candidates[i]!;
      for (let g = 0; g < groups.length; g++) if (groups[g] !== smallest && !holds(groups[g]!, ref)) continue next;
      out.push(ref);
    }
    return out;
  }

  /** The blocks of [from, to] under any of `keys` (one OR-group, keys as `postingKeys` makes them): a span of each. */
  #group(keys: readonly string[], from: bigint, to: bigint): Group {
    const spans: Span[] = [];
    let size = 0;
    for (let k = 0; k < keys.length; k++) {
      const list = this.#lists.get(keys[k]!);
      if (list === undefined) continue;
      const lo = lowerBound(list, from);
      const hi = lowerBound(list, to + 1n);
      if (hi > lo) spans.push({ list, lo, hi });
      size += hi - lo;
    }
    return { spans, size };
  }

  #start(floor: bigint): void {
    // An eviction before this read may have set a higher floor already.
    if (this.#floor === undefined || floor > this.#floor) this.#floor = floor;
    this.#dropBelow(this.#floor);
  }

  #observe(op: WriteOp): void {
    const key = op.key;
    if (key.length < 2 + SUFFIX) return;
    const at = key.length - SUFFIX;
    const number = new DataView(key.buffer, key.byteOffset + at, 8).getBigUint64(0);
    // Below the floor LevelDB answers (once the floor is known, nothing under it is kept).
    if (this.#floor !== undefined && number < this.#floor) return;
    const id = latin1(key.subarray(at));
    const prefix = latin1(key.subarray(0, at));
    if (op.type === 'put') this.#add(prefix, id, number, key.subarray(at + 8));
    else this.#remove(prefix, id);
    if (this.#postings > this.maxPostings) this.#evict();
  }

  #add(prefix: string, id: string, number: bigint, hash: Uint8Array): void {
    let block = this.#blocks.get(id);
    if (block === undefined) {
      block = { ref: { id, number, hash: hash.slice() }, postings: 0 };
      this.#blocks.set(id, block);
    }
    let list = this.#lists.get(prefix);
    if (list === undefined) {
      list = [];
      this.#lists.set(prefix, list);
    }
    // Blocks come in ascending height but for side blocks and rewrites: insert in order, once.
    let at = list.length;
    while (at > 0 && list[at - 1]!.number > number) at--;
    for (let i = at - 1; i >= 0 && list[i]!.number === number; i--) if (list[i]!.id === id) return;
    list.splice(at, 0, block.ref);
    block.postings++;
    this.#postings++;
  }

  #remove(prefix: string, id: string): void {
    const list = this.#lists.get(prefix);
    const at = list?.findIndex((ref) => ref.id === id) ?? -1;
    if (list === undefined || at < 0) return;
    list.splice(at, 1);
    if (list.length === 0) this.#lists.delete(prefix);
    this.#postings--;
    const block = this.#blocks.get(id)!;
    if (--block.postings === 0) this.#blocks.delete(id);
  }

  /** Drops the lowest heights holding a quarter of the postings, and raises the floor above them. */
  #evict(): void {
    const heights = new Map<bigint, number>();
    for (const { ref, postings } of this.#blocks.values())
      heights.set(ref.number, (heights.get(ref.number) ?? 0) + postings);
    const ascending = [...heights.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    let freed = 0;
    let newFloor = ascending[ascending.length - 1]! + 1n;
    for (const n of ascending) {
      if (freed >= this.#postings / 4) {
        newFloor = n;
        break;
      }
      freed += heights.get(n)!;
    }
    if (this.#floor === undefined || newFloor > this.#floor) this.#floor = newFloor;
    this.#dropBelow(newFloor);
  }

  #dropBelow(floor: bigint): void {
    for (const [prefix, list] of this.#lists) {
      const cut = lowerBound(list, floor);
      if (cut === 0) continue;
      if (cut === list.length) this.#lists.delete(prefix);
      else list.splice(0, cut);
      this.#postings -= cut;
    }
    for (const [id, block] of this.#blocks) if (block.ref.number < floor) this.#blocks.delete(id);
  }
}

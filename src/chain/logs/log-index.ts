/**
 * The persistent log index: which blocks hold a log from an address, or with a topic at a position.
 *
 * Keys (one table tag, 'L', beside the chain tables of src/chain/db/keys.ts), empty values:
 *
 *   'L' 0x00                   number8 hash32   block has at least one log
 *   'L' 0x01 address20         number8 hash32   block has a log emitted by address
 *   'L' 0x10+p topic32         number8 hash32   block has a log with topic at position p (0..3)
 *
 * Entries are written for every *stored* block, canonical or not, in the same batch as the block's
 * receipts (`indexWrites`), and are keyed by hash as well as height: like the receipts they describe
 * they never change, so a reorganisation needs no index work and a crash cannot leave the index out
 * of step with the blocks. Readers keep the candidates whose hash is the canonical one at that height.
 * A query reads one key range per OR-ed value and intersects the criteria, so its cost follows the
 * number of blocks holding its rarest criterion, not the width of the range (see `candidates`).
 *
 * The index must be written from genesis on: a block stored without its entries is invisible to
 * indexed queries.
 */
import { mapPacked } from '../base/packed-map.js';
import type { WriteOp } from '../db/chain-db.js';
import type { CompiledCriteria } from './match.js';
import type { ReceiptWithLogs } from './types.js';

export const LOG_INDEX_TAG = 'L'.charCodeAt(0);
const KIND_ANY_LOG = 0x00;
const KIND_ADDRESS = 0x01;
const KIND_TOPIC = 0x10;
const MAX_U64 = (1n << 64n) - 1n;

/** What the index needs of a block: ethereumjs `Block` satisfies it. */
export interface IndexableBlock {
  hash(): Uint8Array;
  readonly header: { readonly number: bigint };
}

/** An ordered key iterator (a LevelDB `db.keys(...)` iterator satisfies it). */
export interface KeyIterator {
  /** Up to `size` next keys; an empty array at the end. */
  nextv(size: number): Promise<Uint8Array[]>;
  close(): Promise<void>;
}

/** Ordered key reads on the chain database: LevelDB's `db.keys({ gte, lt })` satisfies it. */
export interface LogIndexReader {
  keys(range: { gte: Uint8Array; lt: Uint8Array; reverse?: boolean }): KeyIterator;
}

/** A block that the index says may hold matching logs; not yet checked to be canonical. */
export interface IndexCandidate {
  readonly number: bigint;
  readonly hash: Uint8Array;
}

function u64(n: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, n < 0n ? 0n : n > MAX_U64 ? MAX_U64 : n);
  return out;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const prefixOf = (kind: number, value?: Uint8Array): Uint8Array =>
  concat(Uint8Array.of(LOG_INDEX_TAG, kind), value ?? new Uint8Array(0));

/** Every index key of one block, deduplicated (many logs with one topic give one key). */
function blockKeys(block: IndexableBlock, receipts: readonly ReceiptWithLogs[]): Uint8Array[] {
  const suffix = concat(u64(block.header.number), block.hash());
  const prefixes = new Map<string, Uint8Array>();
  const add = (prefix: Uint8Array) => prefixes.set(Buffer.from(prefix).toString('latin1'), prefix);
  for (const receipt of receipts) {
    for (const log of receipt.logs) {
      add(prefixOf(KIND_ANY_LOG));
      add(prefixOf(KIND_ADDRESS, log.address));
      log.topics.forEach((topic, position) => {
        add(prefixOf(KIND_TOPIC + position, topic));
      });
    }
  }
  const keys: Uint8Array[] = [];
  for (const p of prefixes.values()) keys.push(concat(p, suffix));
  return keys;
}

const EMPTY = new Uint8Array(0);

/** The index entries of a newly stored block, for the engine's per-block write batch. */
export function indexWrites(block: IndexableBlock, receipts: readonly ReceiptWithLogs[]): WriteOp[] {
  return mapPacked(blockKeys(block, receipts), (key): WriteOp => ({ type: 'put', key, value: EMPTY }));
}

/**
 * Deletes a block's entries. Reorganisations do not need it (entries are per hash); it is for pruning
 * stored side-chain blocks or rebuilding the index.
 */
export function unindexWrites(block: IndexableBlock, receipts: readonly ReceiptWithLogs[]): WriteOp[] {
  return mapPacked(blockKeys(block, receipts), (key): WriteOp => ({ type: 'del', key }));
}

/** One posting of the log index, decoded from its key (`logIndexEntries`). */
export type LogIndexEntry =
  | { readonly kind: 'any'; readonly number: bigint; readonly hash: Uint8Array }
  | { readonly kind: 'address'; readonly address: Uint8Array; readonly number: bigint; readonly hash: Uint8Array }
  | {
      readonly kind: 'topic';
      readonly position: number;
      readonly topic: Uint8Array;
      readonly number: bigint;
      readonly hash: Uint8Array;
    };

/** Decodes a log-index key; undefined for a key of another table or of an unknown shape. */
export function decodeLogIndexKey(key: Uint8Array): LogIndexEntry | undefined {
  if (key.length < 2 + 40 || key[0] !== LOG_INDEX_TAG) return undefined;
  const kind = key[1];
  const { number, hash } = candidateOf(key);
  const value = key.slice(2, key.length - 40);
  if (kind === KIND_ANY_LOG && value.length === 0) return { kind: 'any', number, hash: hash.slice() };
  if (kind === KIND_ADDRESS && value.length === 20)
    return { kind: 'address', address: value, number, hash: hash.slice() };
  if (kind >= KIND_TOPIC && kind < KIND_TOPIC + 4 && value.length === 32)
    return { kind: 'topic', position: kind - KIND_TOPIC, topic: value, number, hash: hash.slice() };
  return undefined;
}

/**
 * Every posting of the log index in key order, for offline consistency checks and index rebuilds (not for queries:
 * see `LogIndex.candidates`). A key of the table that does not decode comes back as `{ kind: 'malformed', key }`.
 */
export async function* logIndexEntries(
  reader: LogIndexReader,
  chunk = 1024,
): AsyncGenerator<LogIndexEntry | { readonly kind: 'malformed'; readonly key: Uint8Array }> {
  const iterator = reader.keys({ gte: Uint8Array.of(LOG_INDEX_TAG), lt: Uint8Array.of(LOG_INDEX_TAG + 1) });
  try {
    for (;;) {
      const keys = await iterator.nextv(chunk);
      if (keys.length === 0) return;
      for (const key of keys) yield decodeLogIndexKey(key) ?? { kind: 'malformed', key: key.slice() };
    }
  } finally {
    await iterator.close();
  }
}

/**
 * The key prefixes a block must have a posting under, as OR-groups (the addresses; each constrained topic position),
 * every group to be met; criteria without any constraint need a block with some log.
 */
export function postingPrefixes(c: CompiledCriteria): Uint8Array[][] {
  const groups: Uint8Array[][] = [];
  if (c.addresses !== undefined) groups.push(c.addresses.map((a) => prefixOf(KIND_ADDRESS, a)));
  c.topics.forEach((set, position) => {
    if (set !== undefined) groups.push(set.map((t) => prefixOf(KIND_TOPIC + position, t)));
  });
  if (groups.length === 0) groups.push([prefixOf(KIND_ANY_LOG)]);
  return groups;
}

/** A byte string as latin1 text, a character per byte (what `Buffer#toString('latin1')` makes). */
const latin1Of = (bytes: Uint8Array): string => String.fromCharCode.apply(null, bytes as unknown as number[]);

/**
 * `postingPrefixes` as latin1 text (the keys of the in-memory postings, recent-postings.ts), made without the byte
 * arrays: a query over recent blocks runs this a few times only before it answers, so it runs in the interpreter.
 */
export function postingKeys(c: CompiledCriteria): string[][] {
  const groups: string[][] = [];
  if (c.addresses !== undefined) {
    const head = String.fromCharCode(LOG_INDEX_TAG, KIND_ADDRESS);
    const group: string[] = [];
    for (let i = 0; i < c.addresses.length; i++) group.push(head + latin1Of(c.addresses[i]!));
    groups.push(group);
  }
  for (let position = 0; position < c.topics.length; position++) {
    const set = c.topics[position];
    if (set === undefined) continue;
    const head = String.fromCharCode(LOG_INDEX_TAG, KIND_TOPIC + position);
    const group: string[] = [];
    for (let i = 0; i < set.length; i++) group.push(head + latin1Of(set[i]!));
    groups.push(group);
  }
  if (groups.length === 0) groups.push([String.fromCharCode(LOG_INDEX_TAG, KIND_ANY_LOG)]);
  return groups;
}

/** The highest block (canonical or not) with a posting in the index, or undefined for none: one reverse key read. */
export async function highestIndexedBlock(reader: LogIndexReader): Promise<bigint | undefined> {
  const iterator = reader.keys({ gte: prefixOf(KIND_ANY_LOG), lt: prefixOf(KIND_ANY_LOG + 1), reverse: true });
  try {
    const [key] = await iterator.nextv(1);
    return key === undefined ? undefined : candidateOf(key).number;
  } finally {
    await iterator.close();
  }
}

function candidateOf(key: Uint8Array): IndexCandidate {
  const at = key.length - 40;
  const number = new DataView(key.buffer, key.byteOffset + at, 8).getBigUint64(0);
  return { number, hash: key.subarray(at + 8) };
}

const idOf = (key: Uint8Array): string =>
  Buffer.from(key.buffer, key.byteOffset + key.length - 40, 40).toString('latin1');

/** One OR-group of the criteria (the addresses, or one topic position): a key range per value. */
class GroupScan {
  readonly found = new Map<string, IndexCandidate>();
  /** Every key of the group's ranges has been read. */
  complete = false;
  /** Below this height the group's membership is fully known (fixed when the scan stops). */
  knownBelow = 0n;
  private readonly live: { iterator: KeyIterator; reached: bigint }[];

  constructor(reader: LogIndexReader, prefixes: readonly Uint8Array[], from: bigint, to: bigint) {
    this.live = prefixes.map((prefix) => ({
      iterator: reader.keys({
        gte: concat(prefix, u64(from)),
        lt: to >= MAX_U64 ? concat(prefix, u64(MAX_U64), new Uint8Array(32).fill(0xff)) : concat(prefix, u64(to + 1n)),
      }),
      reached: from - 1n,
    }));
  }

  async step(chunk: number): Promise<void> {
    await Promise.all(
      [...this.live].map(async (entry) => {
        const keys = await entry.iterator.nextv(chunk);
        if (keys.length === 0) {
          this.live.splice(this.live.indexOf(entry), 1);
          this.complete = this.live.length === 0;
          await entry.iterator.close();
          return;
        }
        for (const key of keys) {
          const id = idOf(key);
          if (!this.found.has(id)) this.found.set(id, candidateOf(key));
        }
        entry.reached = candidateOf(keys[keys.length - 1]).number;
      }),
    );
  }

  async close(): Promise<void> {
    this.knownBelow = this.live.reduce((min, it) => (it.reached < min ? it.reached : min), MAX_U64 + 1n);
    await Promise.all(this.live.map((entry) => entry.iterator.close()));
    this.live.length = 0;
  }
}

const FIRST_CHUNK = 64;
const MAX_CHUNK = 4096;

export class LogIndex {
  constructor(private readonly reader: LogIndexReader) {}

  /**
   * Blocks in [from, to] (canonical or not) that may hold a log matching `c`, in ascending height.
   *
   * Every criterion (the addresses, each constrained topic position) is an OR-group of key ranges and
   * a block must appear in all of them. The groups are scanned in step, in growing chunks, until the
   * most selective one is complete: a popular topic (an event signature in every block) costs about
   * as many key reads as the rare address it is combined with, not one per block of the range.
   * Candidates are then pruned by the other groups as far as they were scanned; the rest is left to
   * the exact match on the receipts.
   */
  async candidates(c: CompiledCriteria, from: bigint, to: bigint): Promise<IndexCandidate[]> {
    const groups = postingPrefixes(c).map((prefixes) => new GroupScan(this.reader, prefixes, from, to));
    try {
      let chunk = FIRST_CHUNK;
      while (!groups.some((g) => g.complete)) {
        await Promise.all(groups.map((g) => g.step(chunk)));
        chunk = Math.min(chunk * 2, MAX_CHUNK);
      }
    } finally {
      await Promise.all(groups.map((g) => g.close()));
    }
    const complete = groups.filter((g) => g.complete).sort((a, b) => a.found.size - b.found.size);
    const [smallest] = complete;
    const others = groups.filter((g) => g !== smallest);
    const out: IndexCandidate[] = [];
    for (const [id, candidate] of smallest.found) {
      if (others.every((g) => g.found.has(id) || (!g.complete && candidate.number >= g.knownBelow)))
        out.push(candidate);
    }
    return out.sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : 0));
  }
}

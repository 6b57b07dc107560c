/**
 * The headers of a bulk run of empty blocks (empty-chunk.ts), made and encoded without the library's per-header
 * work. From one block to the next only the parent hash, state root, number, timestamp, difficulty and seal change;
 * everything else (the Common, coinbase, roots of the empty lists, bloom, gas, extra data, the checkpoint field) is
 * the same. The library's constructor copies its Common, converts and checks every field and asks the Common about
 * eight EIPs, and its `serialize` asks those again and re-encodes the 256-byte bloom: ~30 µs a block, profiled as
 * the largest share of a bulk block after the database write.
 *
 * So the run's first header is the library's (the template), and each later one is a copy of it with the changing
 * fields replaced: same class, same own fields, frozen likewise; its encoding is the template's items with those
 * fields' items encoded again. Proven before use: the run's second header is also built by the library and both
 * must agree (own fields, encoding, hash); if they do not (a library that grew a field), the run gives the
 * library's headers from then on. test/chain/assembly/header-run.test.ts compares copies with the library's over
 * byte-length boundaries of number and timestamp.
 */
import type { BlockHeader, HeaderData } from '@ethereumjs/block';
import { RLP } from '@ethereumjs/rlp';
import { equalsBytes } from '@ethereumjs/util';
import { unpaddedBytes } from '../base/unpadded-bytes.js';

/** The fields a run's headers differ in. */
export interface RunFields {
  readonly parentHash: Uint8Array;
  readonly stateRoot: Uint8Array;
  readonly difficulty: bigint;
  readonly number: bigint;
  readonly timestamp: bigint;
  readonly mixHash: Uint8Array;
  readonly nonce: Uint8Array;
}

/** Positions of the changing fields in `raw()` (the library's order of the 15 standard fields). */
const RAW_INDEX = { parentHash: 0, stateRoot: 3, difficulty: 7, number: 8, timestamp: 11, mixHash: 13, nonce: 14 };

type Build = (data: HeaderData) => BlockHeader;
type Writable = Record<string, unknown>;

export class HeaderRun {
  private template: BlockHeader | undefined;
  /** The template's `raw()` items, each RLP-encoded (the changing ones are replaced per header). */
  private items: Uint8Array[] = [];
  /** Copies are proven equal to the library's (false: every header is the library's). */
  private proven: boolean | undefined;
  /**
   * The latest header this run copied, and its encoding once asked: the chunk encodes each header right after it is
   * made; any other header is encoded by the library, to the same bytes. (A WeakMap of every copy cost an ephemeron
   * entry per block, which each scavenge then processed: ~1 µs a block in the main thread's CPU samples of the seal
   * step, bench/perf-blocks.ts, and less of its scavenging.)
   */
  private latest: BlockHeader | undefined;
  private latestBytes: Uint8Array | undefined;

  /** `build` is the library's constructor for these headers; `base` the fields every header of the run shares. */
  constructor(
    private readonly build: Build,
    private readonly base: HeaderData,
  ) {}

  /** The run's headers are copies (proven on its second header); false before that or once disproven. */
  get copying(): boolean {
    return this.proven === true;
  }

  header(fields: RunFields): BlockHeader {
    if (this.template === undefined || this.proven === false) return this.library(fields, true);
    const copy = this.copy(fields);
    if (this.proven === true) return copy;
    const library = this.library(fields, false);
    const encoding = this.encodingOf(copy);
    this.proven = sameHeader(copy, library, encoding);
    if (!this.proven) return library;
    this.latestBytes = encoding;
    return copy;
  }

  /**
   * The header's RLP encoding: without the library's `serialize` for the latest copy this run made, in bytes from
   * `allocate` (a chunk's arena, db/record-arena.ts) when given.
   */
  serialize(header: BlockHeader, allocate?: (length: number) => Uint8Array): Uint8Array {
    if (header !== this.latest) return header.serialize();
    this.latestBytes ??= this.encodingOf(header, allocate);
    return this.latestBytes;
  }

  private library(fields: RunFields, asTemplate: boolean): BlockHeader {
    const header = this.build({ ...this.base, ...fields });
    if (asTemplate && this.template === undefined) {
      this.template = header;
      this.items = (header.raw() as unknown as (Uint8Array | Uint8Array[])[]).map((item) => RLP.encode(item));
    }
    return header;
  }

  private copy(fields: RunFields): BlockHeader {
    const template = this.template!;
    this.copier ??= copierOf(template);
    const copy = this.copier(template);
    copy.parentHash = fields.parentHash;
    copy.stateRoot = fields.stateRoot;
    copy.difficulty = fields.difficulty;
    copy.number = fields.number;
    copy.timestamp = fields.timestamp;
    copy.mixHash = fields.mixHash;
    copy.nonce = fields.nonce;
    copy.cache = { hash: undefined };
    if (Object.isFrozen(template)) Object.freeze(copy);
    const header = copy as unknown as BlockHeader;
    this.latest = header;
    this.latestBytes = undefined;
    return header;
  }

  private copier: ((template: BlockHeader) => Writable) | undefined;

  /**
   * The template's encoded items with the changing fields' items in place, as one RLP list, written straight into
   * the output (the numbers too: no item, array or prefix is allocated on the way, one buffer per header).
   */
  private encodingOf(header: BlockHeader, allocate?: (length: number) => Uint8Array): Uint8Array {
    const items = this.items;
    const difficulty = numberItem(header.difficulty);
    const number = numberItem(header.number);
    const timestamp = numberItem(header.timestamp);
    let length = 0;
    for (let i = 0; i < items.length; i++) {
      switch (i) {
        case RAW_INDEX.parentHash:
          length += stringLength(header.parentHash);
          break;
        case RAW_INDEX.stateRoot:
          length += stringLength(header.stateRoot);
          break;
        case RAW_INDEX.difficulty:
          length += numberLength(difficulty);
          break;
        case RAW_INDEX.number:
          length += numberLength(number);
          break;
        case RAW_INDEX.timestamp:
          length += numberLength(timestamp);
          break;
        case RAW_INDEX.mixHash:
          length += stringLength(header.mixHash);
          break;
        case RAW_INDEX.nonce:
          length += stringLength(header.nonce);
          break;
        default:
          length += items[i].length;
      }
    }
    const prefixLength = length < 56 ? 1 : 1 + byteCount(length);
    const out = allocate === undefined ? new Uint8Array(prefixLength + length) : allocate(prefixLength + length);
    if (length < 56) out[0] = 0xc0 + length;
    else {
      out[0] = 0xf7 + prefixLength - 1;
      writeNumber(out, 1, length, prefixLength - 1);
    }
    let at = prefixLength;
    for (let i = 0; i < items.length; i++) {
      switch (i) {
        case RAW_INDEX.parentHash:
          at = writeString(out, at, header.parentHash);
          break;
        case RAW_INDEX.stateRoot:
          at = writeString(out, at, header.stateRoot);
          break;
        case RAW_INDEX.difficulty:
          at = writeNumberItem(out, at, difficulty);
          break;
        case RAW_INDEX.number:
          at = writeNumberItem(out, at, number);
          break;
        case RAW_INDEX.timestamp:
          at = writeNumberItem(out, at, timestamp);
          break;
        case RAW_INDEX.mixHash:
          at = writeString(out, at, header.mixHash);
          break;
        case RAW_INDEX.nonce:
          at = writeString(out, at, header.nonce);
          break;
        default:
          out.set(items[i], at);
          at += items[i].length;
      }
    }
    return out;
  }
}

/**
 * A header number (difficulty, number, timestamp) for `writeNumberItem`: a safe integer as itself, written without
 * an intermediate byte array; a larger one (a difficulty past 2^53) as its bytes.
 */
type NumberItem = number | Uint8Array;

function numberItem(value: bigint): NumberItem {
  return value >= 0n && value <= MAX_SAFE ? Number(value) : unpaddedBytes(value);
}

/** RLP length of a number's item (the unpadded big-endian bytes as a string). */
function numberLength(item: NumberItem): number {
  if (typeof item !== 'number') return stringLength(item);
  return item < 0x80 && item > 0 ? 1 : 1 + byteCount(item);
}

function writeNumberItem(out: Uint8Array, at: number, item: NumberItem): number {
  if (typeof item !== 'number') return writeString(out, at, item);
  if (item < 0x80 && item > 0) {
    out[at] = item;
    return at + 1;
  }
  const size = byteCount(item);
  out[at] = 0x80 + size;
  writeNumber(out, at + 1, item, size);
  return at + 1 + size;
}

/** Bytes of a non-negative safe integer's unpadded big-endian form (0 for 0). */
function byteCount(n: number): number {
  let size = 0;
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) size++;
  return size;
}

/** Writes `n` big-endian in `size` bytes from `at`. */
function writeNumber(out: Uint8Array, at: number, n: number, size: number): void {
  for (let i = size - 1; i >= 0; i--) {
    out[at + i] = n % 256;
    n = Math.floor(n / 256);
  }
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A function copying the template's own fields into a new object of its class, one assignment per field in the
 * template's order: the copies then share one object shape, which keeps `Object.freeze` on them cheap (~0.2 µs
 * against ~6 µs for copies made by a loop of keyed stores, measured). The keys are the library's field names.
 */
export function copierOf(template: BlockHeader): (template: BlockHeader) => Writable {
  const assignments = Object.keys(template)
    .map((key) => `c[${JSON.stringify(key)}] = t[${JSON.stringify(key)}];`)
    .join('\n');
  const make = new Function('proto', 't', `const c = Object.create(proto);\n${assignments}\nreturn c;`) as (
    proto: object,
    t: BlockHeader,
  ) => Writable;
  const proto = Object.getPrototypeOf(template) as object;
  return (t) => make(proto, t);
}

/** RLP length of a byte string shorter than 56 bytes (every changing field is). */
function stringLength(value: Uint8Array): number {
  if (value.length >= 56) throw new RangeError('header run: a changing field of 56 bytes or more');
  return value.length === 1 && value[0] < 0x80 ? 1 : 1 + value.length;
}

function writeString(out: Uint8Array, at: number, value: Uint8Array): number {
  if (value.length === 1 && value[0] < 0x80) {
    out[at] = value[0];
    return at + 1;
  }
  out[at] = 0x80 + value.length;
  out.set(value, at + 1);
  return at + 1 + value.length;
}

/** A copy agrees with the library's header: the same own fields with equal values, the same encoding and hash. */
export function sameHeader(copy: BlockHeader, library: BlockHeader, copyEncoding: Uint8Array): boolean {
  const a = copy as unknown as Writable;
  const b = library as unknown as Writable;
  const keys = Object.keys(b);
  if (Object.keys(a).length !== keys.length) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  for (const key of keys) {
    if (!(key in a)) return false;
    if (key === 'cache' || key === 'common') continue;
    if (!sameValue(a[key], b[key])) return false;
  }
  return equalsBytes(copyEncoding, library.serialize()) && equalsBytes(copy.hash(), library.hash());
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return equalsBytes(a, b);
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    // An Address (its bytes) or a checkpoint: compared by their encodings.
    const bytesA = (a as { bytes?: unknown }).bytes;
    const bytesB = (b as { bytes?: unknown }).bytes;
    if (bytesA instanceof Uint8Array && bytesB instanceof Uint8Array) return equalsBytes(bytesA, bytesB);
    return (
      JSON.stringify(a, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)) ===
      JSON.stringify(b, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))
    );
  }
  return a === b;
}

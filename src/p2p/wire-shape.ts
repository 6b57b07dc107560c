/**
 * Shape checking of RLP messages from peers, shared by the eth/68 and snap/1 codecs: the nesting bound checked before
 * decoding, and field-by-field checks that throw `WireDecodeError` naming the message and the field.
 */
import { RLP, type NestedUint8Array } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToBigInt } from '@ethereumjs/util';
import { decodeRlpViews as decodeViews } from '../chain/index.js';

export class WireDecodeError extends Error {
  override name = 'WireDecodeError';
}

export type RlpItem = Uint8Array | NestedUint8Array;

/** Field-by-field checks of one decoded message; every failure names the message and the field. */
export class Shape {
  constructor(readonly message: string) {}

  fail(field: string, problem: string): never {
    throw new WireDecodeError(`${this.message}: ${field} ${problem}`);
  }

  list(item: RlpItem, field: string, length?: number): RlpItem[] {
    if (!Array.isArray(item)) this.fail(field, `must be a list, got a ${item.length}-byte string`);
    if (length !== undefined && item.length !== length)
      this.fail(field, `must have ${length} items, got ${item.length}`);
    return item;
  }

  bytes(item: RlpItem, field: string, length?: number): Uint8Array {
    if (Array.isArray(item)) this.fail(field, `must be a byte string, got a list of ${item.length} items`);
    if (length !== undefined && item.length !== length) this.fail(field, `must be ${length} bytes, got ${item.length}`);
    return item;
  }

  hash(item: RlpItem, field: string): Uint8Array {
    return this.bytes(item, field, 32);
  }

  /** An unsigned integer of at most `maxBytes` bytes in canonical form (no leading zero bytes; 0 is empty). */
  uint(item: RlpItem, field: string, maxBytes = 8): bigint {
    const b = this.bytes(item, field);
    if (b.length > maxBytes) this.fail(field, `is a ${b.length}-byte integer, at most ${maxBytes} bytes allowed`);
    if (b.length > 0 && b[0] === 0) this.fail(field, 'is a non-canonical integer (leading zero bytes)');
    return b.length === 0 ? 0n : bytesToBigInt(b);
  }

  /** A uint64 as a JS number, saturated at 2^53 − 1 (for counts and skips, where anything that large means "all"). */
  count(item: RlpItem, field: string): number {
    const value = this.uint(item, field, 8);
    return value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(value);
  }

  /** A uint32 as a number. */
  uint32(item: RlpItem, field: string): number {
    return Number(this.uint(item, field, 4));
  }

  listOf<T>(item: RlpItem, field: string, each: (element: RlpItem, field: string) => T): T[] {
    return this.list(item, field).map((element, i) => each(element, `${field}[${i}]`));
  }

  hashes(item: RlpItem, field: string): Uint8Array[] {
    return this.listOf(item, field, (h, f) => this.hash(h, f));
  }

  byteStrings(item: RlpItem, field: string): Uint8Array[] {
    return this.listOf(item, field, (b, f) => this.bytes(b, f));
  }
}

/**
 * Deepest list nesting a message may have. The deepest legitimate one is 7 (Receipts: message → blocks → receipts →
 * receipt → logs → log → topics); the margin costs nothing.
 */
export const MAX_RLP_DEPTH = 16;

/**
 * Walks the RLP item headers of `data` (without copying) and throws if lists nest deeper than `maxDepth` or an item
 * overruns the list holding it. Needed before `RLP.decode`, which copies every list's contents once per nesting
 * level: a 10 MiB message nested thousands deep would otherwise block the event loop for a minute.
 */
function checkNesting(data: Uint8Array, maxDepth: number): void {
  const ends: number[] = [];
  let p = 0;
  const readLength = (at: number, size: number): number => {
    if (at + size > data.length) throw new Error('length prefix runs past the end');
    let n = 0;
    for (let i = 0; i < size; i++) n = n * 256 + data[at + i]!;
    return n;
  };
  while (p < data.length) {
    const b = data[p]!;
    let header: number;
    let length: number;
    let isList = false;
    if (b < 0x80) [header, length] = [0, 1];
    else if (b <= 0xb7) [header, length] = [1, b - 0x80];
    else if (b <= 0xbf) [header, length] = [1 + b - 0xb7, readLength(p + 1, b - 0xb7)];
    else if (b <= 0xf7) [header, length, isList] = [1, b - 0xc0, true];
    else [header, length, isList] = [1 + b - 0xf7, readLength(p + 1, b - 0xf7), true];
    const end = p + header + length;
    if (end > (ends.length > 0 ? ends[ends.length - 1]! : data.length))
      throw new Error('an item runs past the end of its list');
    if (isList) {
      if (ends.length >= maxDepth) throw new Error(`lists nested deeper than ${maxDepth}`);
      ends.push(end);
      p += header;
    } else {
      p = end;
    }
    while (ends.length > 0 && p === ends[ends.length - 1]) ends.pop();
  }
}

/** `RLP.decode` behind the nesting check; throws plain errors (callers add the message and field). */
export function decodeRlp(data: Uint8Array): RlpItem {
  checkNesting(data, MAX_RLP_DEPTH);
  return RLP.decode(data);
}

/**
 * The same decoding as decodeRlp (canonical encoding only, the nesting bound), but every byte string is a view into
 * `data` instead of a copy: for the large snap answers, whose strings are hashed, checked and written once (the
 * library's copies were ~7 % of a snap-syncing node's CPU). Messages whose parts are kept long use decodeRlp.
 */
export function decodeRlpViews(data: Uint8Array): RlpItem {
  return decodeViews(data, MAX_RLP_DEPTH) as RlpItem;
}

/**
 * RLP-decodes `payload` (exactly one item, canonical encoding) and hands it to `read`. Any failure, including
 * RLP errors and anything unexpected while reading, comes out as a WireDecodeError naming the message.
 */
export function decodeMessage<T>(
  message: string,
  payload: Uint8Array,
  read: (root: RlpItem, shape: Shape) => T,
  options: { readonly views?: boolean } = {},
): T {
  const shape = new Shape(message);
  let root: RlpItem;
  try {
    root = options.views ? decodeRlpViews(payload) : decodeRlp(payload);
  } catch (err) {
    throw new WireDecodeError(`${message}: invalid RLP (${(err as Error).message})`);
  }
  try {
    return read(root, shape);
  } catch (err) {
    if (err instanceof WireDecodeError) throw err;
    throw new WireDecodeError(`${message}: malformed (${(err as Error).message})`);
  }
}

/** Minimal big-endian bytes of a non-negative integer (0 → empty), as RLP integers are written. */
export function uintBytes(value: bigint | number): Uint8Array {
  const v = BigInt(value);
  if (v < 0n) throw new RangeError(`cannot encode negative integer ${v}`);
  return bigIntToUnpaddedBytes(v);
}

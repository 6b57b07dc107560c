/**
 * RLP decoding without copies (rlp-views.test.ts compares it with @ethereumjs/rlp; p2p/wire-shape.test.ts with the
 * library's refusals). Why: a snap server decodes every trie node it walks and every account it answers, a snap
 * client every hash and value of a range answer, and the library's decoder copies each string it returns. A view keeps
 * the whole encoding alive while it is held, so encodings whose parts are kept long use the library's decoder.
 */

export type RlpView = Uint8Array | RlpView[];

/**
 * The item `data` encodes, its strings views into `data`: canonical encodings only (as the library decodes), lists
 * nested at most `maxDepth` deep (peers' messages bound it before anything is built). Empty input is the empty string.
 */
export function decodeRlpViews(data: Uint8Array, maxDepth = Number.POSITIVE_INFINITY): RlpView {
  if (data.length === 0) return data;
  const [item, end] = readItem(data, 0, data.length, 0, maxDepth);
  if (end !== data.length) throw new Error('invalid RLP: remainder must be zero');
  return item;
}

/** One well-formed RLP list as views (trie nodes in a range walk, account bodies of a snap answer). */
export function decodeRlpList(encoded: Uint8Array): RlpView[] {
  const list = decodeRlpViews(encoded);
  if (!Array.isArray(list)) throw new Error('not one RLP list');
  return list;
}

/** The length in `size` big-endian bytes at `at` (canonical: no leading zero), within `limit`. */
function readLength(b: Uint8Array, at: number, size: number, limit: number): number {
  if (at + size > limit) throw new Error('invalid RLP: not enough bytes for the length');
  if (b[at] === 0) throw new Error('invalid RLP: extra zeros');
  let n = 0;
  for (let i = 0; i < size; i++) n = n * 256 + b[at + i]!;
  return n;
}

/** The item at `at`, which must end by `limit`, and the offset after it. */
function readItem(b: Uint8Array, at: number, limit: number, depth: number, maxDepth: number): [RlpView, number] {
  const first = b[at]!;
  if (first < 0x80) return [b.subarray(at, at + 1), at + 1];
  let start: number;
  let length: number;
  if (first <= 0xb7 || (first >= 0xc0 && first <= 0xf7)) {
    start = at + 1;
    length = first - (first <= 0xb7 ? 0x80 : 0xc0);
  } else {
    const size = first - (first <= 0xbf ? 0xb7 : 0xf7);
    length = readLength(b, at + 1, size, limit);
    if (length < 56) throw new Error('invalid RLP: a long form for fewer than 56 bytes');
    start = at + 1 + size;
  }
  const end = start + length;
  if (end > limit) throw new Error('invalid RLP: an item runs past the end of its list or of the data');
  if (first <= 0xbf) {
    if (length === 1 && b[start]! < 0x80) throw new Error('invalid RLP: single byte < 0x80 are not prefixed');
    return [b.subarray(start, end), end];
  }
  if (depth >= maxDepth) throw new Error(`lists nested deeper than ${maxDepth}`);
  const list: RlpView[] = [];
  for (let p = start; p < end; ) {
    const [x, next] = readItem(b, p, end, depth + 1, maxDepth);
    list.push(x);
    p = next;
  }
  return [list, end];
}

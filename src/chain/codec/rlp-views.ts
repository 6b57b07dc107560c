/**
 * RLP decoding without copies (rlp-views.test.ts compares it with @ethereumjs/rlp). Why: a snap server decodes every
 * trie node it walks and every account it answers, and the library's decoder copies each string it returns.
 */

export type RlpView = Uint8Array | RlpView[];

/**
 * An RLP list whose strings are views into `encoded` (the library's decoder copies every one). For encodings read
 * once and mostly thrown away: trie nodes in a range walk, account bodies of a snap answer. Throws on anything but
 * one well-formed list.
 */
export function decodeRlpList(encoded: Uint8Array): RlpView[] {
  const [list, end] = item(encoded, 0);
  if (end !== encoded.length || !Array.isArray(list)) throw new Error('not one RLP list');
  return list;
}

/** The RLP item at `at` and the offset after it. */
function item(b: Uint8Array, at: number): [RlpView, number] {
  const first = b[at];
  if (first === undefined) throw new Error('the encoding ends inside an item');
  if (first < 0x80) return [b.subarray(at, at + 1), at + 1];
  let start: number;
  let length: number;
  if (first < 0xb8 || (first >= 0xc0 && first < 0xf8)) {
    start = at + 1;
    length = first - (first < 0xc0 ? 0x80 : 0xc0);
  } else {
    const bytes = first - (first < 0xc0 ? 0xb7 : 0xf7);
    length = 0;
    for (let i = 1; i <= bytes; i++) length = length * 256 + b[at + i]!;
    start = at + 1 + bytes;
  }
  const end = start + length;
  if (end > b.length) throw new Error('the encoding ends inside an item');
  if (first < 0xc0) return [b.subarray(start, end), end];
  const list: RlpView[] = [];
  for (let p = start; p < end; ) {
    const [x, next] = item(b, p);
    if (next > end) throw new Error('an item runs past the end of its list');
    list.push(x);
    p = next;
  }
  return [list, end];
}

/**
 * One RLP item's place in a buffer, found without decoding it: the pruner's mark walk (state-marks.ts) reads only
 * the hashes out of each stored trie node, and building @ethereumjs's decoded arrays (an array and a view per item,
 * 17 items a branch) was most of its time and all of its garbage.
 */
export class RlpCursor {
  /** The last item's payload is `buf[start…end)`, a list's items or a string's bytes. */
  start = 0;
  end = 0;
  list = false;

  /** Reads the item at `pos`, which must end by `limit`; returns the position after it. Throws on malformed bytes. */
  read(buf: Uint8Array, pos: number, limit: number): number {
    if (pos >= limit) throw malformed(pos);
    const b = buf[pos]!;
    let start = pos + 1;
    let length: number;
    if (b < 0x80) {
      start = pos;
      length = 1;
      this.list = false;
    } else if (b <= 0xb7) {
      length = b - 0x80;
      this.list = false;
    } else if (b <= 0xbf) {
      start += b - 0xb7;
      length = lengthAt(buf, pos + 1, start, limit);
      this.list = false;
    } else if (b <= 0xf7) {
      length = b - 0xc0;
      this.list = true;
    } else {
      start += b - 0xf7;
      length = lengthAt(buf, pos + 1, start, limit);
      this.list = true;
    }
    const end = start + length;
    if (end > limit) throw malformed(pos);
    this.start = start;
    this.end = end;
    return end;
  }
}

/** A long item's big-endian length in `buf[from…to)` (at most 4 bytes: no stored node is near 4 GiB). */
function lengthAt(buf: Uint8Array, from: number, to: number, limit: number): number {
  if (to - from > 4 || to > limit) throw malformed(from - 1);
  let length = 0;
  for (let i = from; i < to; i++) length = length * 256 + buf[i]!;
  return length;
}

const malformed = (pos: number) => new Error(`malformed RLP at byte ${pos}`);

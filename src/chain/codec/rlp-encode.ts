/**
 * RLP encoding into one buffer: the sizes first, then every byte written once. Same output as @ethereumjs/rlp's
 * `RLP.encode` for byte strings and nested lists of them (rlp-encode.test.ts compares the two).
 *
 * Why: the library encodes each item into its own array and concatenates them at every level, so a trie node
 * costs a handful of allocations and copies. A snap sync encodes every node of every range it checks (to hash
 * it), and a snap server encodes answers of thousands of items: in their profiles RLP encoding was 10-16 % of
 * the syncing node's CPU time.
 */

export type RlpItem = Uint8Array | readonly RlpItem[];

/** The RLP encoding of `item`. */
export function encodeRlp(item: RlpItem): Uint8Array {
  const out = new Uint8Array(itemLength(item));
  write(item, out, 0);
  return out;
}

/**
 * What @ethereumjs/rlp's `RLP.encode` gives for `input`, in one buffer, when `input` is a byte string, null or
 * undefined (both the empty string, as the library reads them), or a nested list of those; undefined for any other
 * leaf (numbers, bigints, text: the library's own conversions decide those).
 */
export function encodeByteTree(input: unknown): Uint8Array | undefined {
  const n = treeLength(input);
  if (n < 0) return undefined;
  const out = new Uint8Array(n);
  writeTree(input, out, 0);
  return out;
}

/** `itemLength` for `encodeByteTree`'s inputs; -1 when a leaf is of another kind. */
function treeLength(item: unknown): number {
  if (item instanceof Uint8Array) return itemLength(item);
  if (item === null || item === undefined) return 1;
  if (!Array.isArray(item)) return -1;
  let payload = 0;
  for (let i = 0; i < item.length; i++) {
    const n = treeLength(item[i]);
    if (n < 0) return -1;
    payload += n;
  }
  return headerLength(payload) + payload;
}

/** `write` for a tree `treeLength` measured (null and undefined leaves are the empty string, 0x80). */
function writeTree(item: unknown, out: Uint8Array, at: number): number {
  if (item instanceof Uint8Array) return write(item, out, at);
  if (item === null || item === undefined) {
    out[at] = 0x80;
    return at + 1;
  }
  const list = item as readonly unknown[];
  let payload = 0;
  for (let i = 0; i < list.length; i++) payload += treeLength(list[i]);
  at = writeHeader(payload, 0xc0, out, at);
  for (let i = 0; i < list.length; i++) at = writeTree(list[i], out, at);
  return at;
}

/** Bytes of `item`'s encoding. */
export function itemLength(item: RlpItem): number {
  if (item instanceof Uint8Array) {
    const n = item.length;
    return n === 1 && item[0]! < 0x80 ? 1 : headerLength(n) + n;
  }
  const payload = payloadLength(item);
  return headerLength(payload) + payload;
}

function payloadLength(list: readonly RlpItem[]): number {
  let n = 0;
  for (let i = 0; i < list.length; i++) n += itemLength(list[i]!);
  return n;
}

function headerLength(payload: number): number {
  if (payload < 56) return 1;
  let bytes = 1;
  for (let n = payload; n >= 256; n = Math.floor(n / 256)) bytes++;
  return 1 + bytes;
}

/** Writes `item` at `at`; returns the offset after it. */
function write(item: RlpItem, out: Uint8Array, at: number): number {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && item[0]! < 0x80) {
      out[at] = item[0]!;
      return at + 1;
    }
    at = writeHeader(item.length, 0x80, out, at);
    out.set(item, at);
    return at + item.length;
  }
  at = writeHeader(payloadLength(item), 0xc0, out, at);
  for (let i = 0; i < item.length; i++) at = write(item[i]!, out, at);
  return at;
}

/** Short form below 56 bytes (offset + length), long form above (offset + 55 + length of length, length). */
function writeHeader(payload: number, offset: number, out: Uint8Array, at: number): number {
  if (payload < 56) {
    out[at] = offset + payload;
    return at + 1;
  }
  const bytes = headerLength(payload) - 1;
  out[at] = offset + 55 + bytes;
  for (let i = bytes, n = payload; i > 0; i--, n = Math.floor(n / 256)) out[at + i] = n % 256;
  return at + 1 + bytes;
}

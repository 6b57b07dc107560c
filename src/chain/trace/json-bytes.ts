/**
 * JSON text written as bytes into one growing buffer, for an answer written piece by piece (the struct logger's,
 * struct-log-text.ts): numbers and hex go in digit by digit, with no string per value and no string per entry, so a
 * trace of a thousand opcodes leaves one buffer behind instead of thousands of short strings for the young
 * generation's collector (which was a quarter of a struct-logger trace's time, measured with bench/trace-engine.ts).
 * Everything written is ASCII but `utf8Text`'s (an error message), which goes in as UTF-8: the bytes are the answer's
 * UTF-8 as they stand.
 */

/** The two ASCII hex digits of each byte value, high digit in the high byte. */
const HEX_PAIRS = (() => {
  const pairs = new Uint16Array(256);
  const digits = '0123456789abcdef';
  for (let b = 0; b < 256; b++) pairs[b] = (digits.charCodeAt(b >> 4) << 8) | digits.charCodeAt(b & 15);
  return pairs;
})();
const EMPTY = Buffer.alloc(0);
/** 10^i for i < 10 (the decimal widths of a 31-bit integer). */
const POWERS_OF_TEN = Array.from({ length: 10 }, (_, i) => 10 ** i);
/** The two ASCII decimal digits of 0–99, tens digit in the high byte. */
const DECIMAL_PAIRS = (() => {
  const pairs = new Uint16Array(100);
  for (let i = 0; i < 100; i++) pairs[i] = ((48 + ((i / 10) | 0)) << 8) | (48 + (i % 10));
  return pairs;
})();
const HEX_DIGITS = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/** Text as bytes, made once (for pieces written often); a Buffer as the one written to, so writes see one kind. */
export const ascii = (s: string): Buffer => Buffer.from(s, 'latin1');

/*
 * The put* functions write at `p` in `buf` (room for it reserved: JsonBytes.reserve) and return the position after;
 * a hot writer keeps its position in a local and stores it back once.
 */

/**
 * A piece of ASCII text written often (the struct logger's field names, an opcode's `,"op":"NAME","gas":`), kept as
 * little-endian 32-bit words and a tail of at most three bytes: `putPiece` stores four bytes at a time, which wrote
 * a struct-log entry's ~60 bytes of fixed text in less than half the time of a byte loop (measured alone).
 */
export class AsciiPiece {
  readonly length: number;
  readonly words: Uint32Array;
  readonly tail: Uint8Array;

  constructor(text: string) {
    const bytes = ascii(text);
    this.length = bytes.length;
    this.words = new Uint32Array(bytes.length >> 2);
    for (let i = 0; i < this.words.length; i++) this.words[i] = bytes.readUInt32LE(4 * i);
    this.tail = Uint8Array.from(bytes.subarray(4 * this.words.length));
  }
}

/** `piece` at `p` of `out`'s buffer (room reserved), through its view; the position after. */
export function putPiece(out: JsonBytes, p: number, piece: AsciiPiece): number {
  const { view, buf } = out;
  const { words, tail } = piece;
  for (let i = 0; i < words.length; i++) {
    view.setUint32(p, words[i]!, true);
    p += 4;
  }
  for (let i = 0; i < tail.length; i++) buf[p++] = tail[i]!;
  return p;
}

/** A non-negative integer below 2^53 in decimal (at most 16 bytes). */
export function putUint(buf: Uint8Array, p: number, n: number): number {
  if (n < 10) {
    buf[p] = 48 + n;
    return p + 1;
  }
  if (n <= 0x7fffffff) {
    let digits = 2;
    while (digits < 10 && n >= POWERS_OF_TEN[digits]!) digits++;
    const end = p + digits;
    let q = end;
    // Two digits per division: a trace's gas figures have six or seven (a quarter of the entry's writing time).
    let t = n | 0;
    while (t >= 100) {
      const upper = (t / 100) | 0;
      const pair = DECIMAL_PAIRS[t - upper * 100]!;
      buf[--q] = pair & 0xff;
      buf[--q] = pair >> 8;
      t = upper;
    }
    if (t >= 10) {
      const pair = DECIMAL_PAIRS[t]!;
      buf[--q] = pair & 0xff;
      buf[--q] = pair >> 8;
    } else buf[--q] = 48 + t;
    return end;
  }
  let digits = 1;
  for (let t = n; t >= 10; t = Math.floor(t / 10)) digits++;
  const end = p + digits;
  let q = end;
  for (let t = n; q > p; t = Math.floor(t / 10)) buf[--q] = 48 + (t % 10);
  return end;
}

/** Hex digits of a non-negative integer below 2^53, no leading zeros ("0" for 0; at most 14 bytes). */
export function putHexUint(buf: Uint8Array, p: number, n: number): number {
  if (n > 0xffffffff) return putHex32(buf, putHex32(buf, p, Math.floor(n / 0x100000000), 0), n >>> 0, 8);
  return putHex32(buf, p, n, 0);
}

/** `n` (below 2^32) in hex, padded to `width` digits. */
function putHex32(buf: Uint8Array, p: number, n: number, width: number): number {
  let digits = n === 0 ? 1 : (35 - Math.clz32(n)) >> 2;
  if (digits < width) digits = width;
  const end = p + digits;
  let q = end;
  for (let t = n; q > p; t >>>= 4) buf[--q] = HEX_DIGITS[t & 15]!;
  return end;
}

/** An ASCII string. */
export function putAscii(buf: Uint8Array, p: number, s: string): number {
  for (let i = 0; i < s.length; i++) buf[p++] = s.charCodeAt(i);
  return p;
}

/**
 * A buffer the last finished answer left, for the next one: a fresh one of a few hundred KiB costs page faults on
 * every trace (most of what writing the text cost, measured). Kept up to `SPARE_MAX`; traces running at the same
 * time each take their own.
 */
let spare: Buffer | undefined;
const SPARE_MAX = 4 << 20;

const viewOf = (buf: Buffer): DataView => new DataView(buf.buffer, buf.byteOffset, buf.length);

export class JsonBytes {
  buf: Buffer;
  /** A view of `buf` (for `putPiece`), replaced with it. */
  view: DataView;
  pos = 0;

  constructor(initial = 1 << 16) {
    this.buf = spare ?? Buffer.allocUnsafe(initial);
    this.view = viewOf(this.buf);
    spare = undefined;
  }

  /** Room for `n` more bytes. */
  reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = Math.max(this.buf.length * 2, 1 << 12);
    while (size < this.pos + n) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
    this.view = viewOf(grown);
  }

  /** An ASCII string (field names, punctuation, opcode names, hex). */
  ascii(s: string): void {
    this.reserve(s.length);
    this.pos = putAscii(this.buf, this.pos, s);
  }

  /** Any string, as UTF-8 (it must already be JSON: quoted and escaped). */
  utf8Text(s: string): void {
    const n = Buffer.byteLength(s, 'utf8');
    this.reserve(n);
    this.pos += this.buf.write(s, this.pos, n, 'utf8');
  }

  /** A non-negative integer below 2^53 in decimal. */
  uint(n: number): void {
    this.reserve(16);
    this.pos = putUint(this.buf, this.pos, n);
  }

  /** `bytes` as hex digits, two per byte. */
  hexBytes(bytes: Uint8Array, from = 0, to = bytes.length): void {
    this.reserve(2 * (to - from));
    const { buf } = this;
    let p = this.pos;
    for (let i = from; i < to; i++) {
      const pair = HEX_PAIRS[bytes[i]!]!;
      buf[p++] = pair >> 8;
      buf[p++] = pair & 0xff;
    }
    this.pos = p;
  }

  /** Overwrites written text at `at` with the hex digits of `bytes` (same length as what was there). */
  hexBytesAt(at: number, bytes: Uint8Array, from: number, to: number): void {
    const { buf } = this;
    let p = at;
    for (let i = from; i < to; i++) {
      const pair = HEX_PAIRS[bytes[i]!]!;
      buf[p++] = pair >> 8;
      buf[p++] = pair & 0xff;
    }
  }

  /** Appends a copy of the text written at [from, to). */
  repeat(from: number, to: number): void {
    this.reserve(to - from);
    this.buf.copy(this.buf, this.pos, from, to);
    this.pos += to - from;
  }

  /**
   * Replaces the text at [from, to) with `text` (ASCII), moving what follows it; returns how far it moved.
   */
  splice(from: number, to: number, text: string): number {
    const delta = text.length - (to - from);
    if (delta > 0) this.reserve(delta);
    if (delta !== 0) this.buf.copy(this.buf, to + delta, to, this.pos);
    for (let i = 0; i < text.length; i++) this.buf[from + i] = text.charCodeAt(i);
    this.pos += delta;
    return delta;
  }

  /**
   * `head`, the text written, then `tail`, as UTF-8 pieces; the writer is done with. The middle piece is a view of
   * the writer's buffer, which goes to the next writer once `release` is called (after the pieces are sent).
   */
  finish(head: string, tail: string): { readonly pieces: readonly Uint8Array[]; readonly release: () => void } {
    const { buf } = this;
    const pieces = [Buffer.from(head, 'utf8'), buf.subarray(0, this.pos), Buffer.from(tail, 'utf8')];
    this.buf = EMPTY;
    this.view = viewOf(EMPTY);
    this.pos = 0;
    const release = (): void => {
      if (buf.length <= SPARE_MAX) spare = buf;
    };
    return { pieces, release };
  }
}

/**
 * The JSON-text struct logger's stack and memory columns (struct-log-text.ts), written as bytes, with the figures the
 * object logger's columns (struct-log-values.ts) give for the request's budget: which values a step repeats from the
 * one before costs the object logger no new strings, and the budget charges both loggers alike.
 *
 * A stack word below 2^53 is written digit by digit, a wider one from its hex text; either text is kept per place in
 * the stack and copied again while the same word stays there (most of a stack does from one step to the next), so
 * an unchanged word costs no BigInt conversion. A memory equal to the last one written repeats that text (a native copy within
 * the buffer); a changed one copies it too and rewrites the rows that changed.
 */
import { stringBytes } from './budget.js';
import { AsciiPiece, type JsonBytes, ascii, putAscii, putHexUint, putPiece } from './json-bytes.js';

/** Heap bytes of the two-piece rope `0x${…}` makes of a string of 13 characters or more. */
const ROPE = 32;
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const STACK_OPEN = new AsciiPiece(',"stack":[');
const STACK_EMPTY = new AsciiPiece(',"stack":[]');
const [COMMA, QUOTE, ZERO, X, CLOSE] = ascii(',"0x]');

/** Hex digits of a stack word at most. */
const SLOT = 64;

/** Stack words as 0x quantities, bottom first. */
export class StackText {
  /** The last step's words, and their hex digits: place `i`'s at `i * SLOT` of `digits`, `digitCount[i]` of them. */
  private readonly words: bigint[] = [];
  private digits = new Uint8Array(16 * SLOT);
  private readonly digitCount: number[] = [];
  private length = 0;
  /** Of the last write: heap bytes of the strings the object logger makes for it. */
  freshBytes = 0;
  /** Of the last write: characters its values take in the answer, quotes and commas included. */
  jsonChars = 0;

  /** The stack is the first `n` words of `stack`. */
  write(out: JsonBytes, stack: readonly bigint[], n: number): void {
    // Per word at most a comma, quotes, 0x and 64 digits.
    out.reserve(STACK_OPEN.length + 1 + 69 * n);
    if (this.digits.length < n * SLOT) {
      const grown = new Uint8Array(Math.max(n, 2 * (this.digits.length / SLOT)) * SLOT);
      grown.set(this.digits);
      this.digits = grown;
    }
    const buf = out.buf;
    let p = putPiece(out, out.pos, n === 0 ? STACK_EMPTY : STACK_OPEN);
    let fresh = 0;
    let chars = 0;
    const { words, digits, digitCount } = this;
    for (let i = 0; i < n; i++) {
      const word = stack[i]!;
      const same = i < this.length && words[i] === word;
      if (i > 0) buf[p++] = COMMA;
      buf[p++] = QUOTE;
      buf[p++] = ZERO;
      buf[p++] = X;
      const start = p;
      const slot = i * SLOT;
      if (same) {
        const end = slot + digitCount[i]!;
        for (let d = slot; d < end; d++) buf[p++] = digits[d]!;
      } else {
        p = word <= SAFE ? putHexUint(buf, p, Number(word)) : putAscii(buf, p, word.toString(16));
        for (let d = start; d < p; d++) digits[slot + d - start] = buf[d]!;
        digitCount[i] = p - start;
      }
      buf[p++] = QUOTE;
      const len = 2 + p - 1 - start;
      if (!same) fresh += stringBytes(len) + (len >= 13 ? ROPE : 0);
      chars += len + 3;
      words[i] = word;
    }
    if (n > 0) buf[p++] = CLOSE;
    out.pos = p;
    this.length = n;
    this.freshBytes = fresh;
    this.jsonChars = chars;
  }
}

/** Bytes of memory compared at once before row by row. */
const BLOCK = 1024;
/** A full row's text: quotes, 64 hex digits and the comma before the next. */
const ROW = 67;

/** Memory as 32-byte rows of 64 hex digits. */
export class MemoryText {
  private copy: Buffer = Buffer.alloc(0);
  private length = 0;
  /** Where the last memory's text (from its `[`) was written, and its length. */
  private textAt = -1;
  private textLength = 0;
  /** Of the last write: its rows, the heap bytes of the row strings the object logger makes fresh for it... */
  rows = 0;
  freshBytes = 0;
  /** ...the characters its rows take in the answer, and whether the object logger reuses the last array whole. */
  jsonChars = 0;
  shared = false;

  /** The text at or after `at` moved by `by` (the open entry's gasCost was rewritten before it). */
  moved(at: number, by: number): void {
    if (this.textAt > at) this.textAt += by;
  }

  write(out: JsonBytes, memory: Uint8Array): void {
    const now = Buffer.from(memory.buffer, memory.byteOffset, memory.length);
    const count = Math.ceil(memory.length / 32);
    this.rows = count;
    this.jsonChars = count * ROW;
    const before = this.copy.subarray(0, this.length);
    out.ascii(',"memory":');
    if (memory.length === this.length && now.equals(before)) {
      out.repeat(this.textAt, this.textAt + this.textLength);
      this.textAt = out.pos - this.textLength;
      this.freshBytes = 0;
      this.shared = true;
      return;
    }
    const at = out.pos;
    // Rows the last text has in full are copied with it (then the changed ones rewritten); the rest are written.
    const kept = this.length % 32 === 0 && this.textAt >= 0 ? Math.min(count, this.length / 32) : 0;
    if (kept > 0) out.repeat(this.textAt, this.textAt + kept * ROW);
    else out.ascii('[');
    let fresh = 0;
    for (let block = 0; block < memory.length; block += BLOCK) {
      const blockEnd = Math.min(block + BLOCK, memory.length);
      const same = blockEnd <= this.length && now.compare(before, block, blockEnd, block, blockEnd) === 0;
      for (let from = block; from < blockEnd; from += 32) {
        const i = from >> 5;
        const to = Math.min(from + 32, memory.length);
        const unchanged = same || (to <= this.length && now.compare(before, from, to, from, to) === 0);
        if (!unchanged) fresh++;
        if (i < kept) {
          if (!unchanged) out.hexBytesAt(at + 2 + i * ROW, now, from, to);
        } else {
          out.ascii(i === 0 ? '"' : ',"');
          out.hexBytes(now, from, to);
          out.ascii('"');
        }
      }
    }
    out.ascii(']');
    if (this.copy.length < memory.length) this.copy = Buffer.allocUnsafe(Math.max(memory.length, this.copy.length * 2));
    this.copy.set(memory);
    this.length = memory.length;
    this.textAt = at;
    this.textLength = out.pos - at;
    this.freshBytes = fresh * stringBytes(64);
    this.shared = false;
  }
}

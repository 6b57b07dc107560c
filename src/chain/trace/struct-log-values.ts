/**
 * The struct logger's stack and memory columns, built so that what one entry repeats of the one before costs no new
 * strings: a stack word or a 32-byte memory row equal to the previous step's at the same place reuses its string,
 * and a memory unchanged since the previous step reuses the whole array (JSON.stringify writes a shared array once
 * per entry that points at it, as geth's answer has it). With `enableMemory` every entry repeats the whole memory, so
 * without this a trace over a 64 KiB memory made 2,048 new strings per opcode.
 *
 * Rows are hex without 0x, made by Buffer's native encoder: one flat string each. @ethereumjs/util's
 * bytesToUnprefixedHex appends two characters at a time, which leaves a rope of 32 pieces per row (~875 heap bytes
 * for 64 characters, measured; a flat row takes 80).
 */
import { stringBytes } from './budget.js';

/** Heap bytes of the two-piece rope `0x${…}` makes of a string of 13 characters or more. */
const ROPE = 32;

export interface Column {
  readonly values: string[];
  /** Heap bytes of the strings made for this step (shared ones cost nothing new). */
  readonly freshBytes: number;
  /** Characters the values take in the answer's JSON, quotes and commas included. */
  readonly jsonChars: number;
  /** The previous step's array itself (nothing changed): no new array either. */
  readonly shared: boolean;
}

/** Stack words as 0x quantities, bottom first. */
export class StackColumn {
  private words: readonly bigint[] = [];
  private texts: string[] = [];

  of(stack: readonly bigint[]): Column {
    const texts = new Array<string>(stack.length);
    let freshBytes = 0;
    let jsonChars = 0;
    for (let i = 0; i < stack.length; i++) {
      const word = stack[i];
      let text: string;
      if (i < this.words.length && this.words[i] === word) text = this.texts[i];
      else {
        text = `0x${word.toString(16)}`;
        freshBytes += stringBytes(text.length) + (text.length >= 13 ? ROPE : 0);
      }
      texts[i] = text;
      jsonChars += text.length + 3;
    }
    this.words = stack.slice();
    this.texts = texts;
    return { values: texts, freshBytes, jsonChars, shared: false };
  }
}

/** Bytes of memory compared at once before row by row. */
const BLOCK = 1024;

/** Memory as 32-byte rows of 64 hex digits. */
export class MemoryColumn {
  private copy: Buffer = Buffer.alloc(0);
  private length = 0;
  private rows: string[] = [];

  of(memory: Uint8Array): Column {
    const now = Buffer.from(memory.buffer, memory.byteOffset, memory.length);
    const count = Math.ceil(memory.length / 32);
    const jsonChars = count * 67;
    const before = this.copy.subarray(0, this.length);
    if (memory.length === this.length && now.equals(before)) {
      return { values: this.rows, freshBytes: 0, jsonChars, shared: true };
    }
    const rows = new Array<string>(count);
    let fresh = 0;
    // Native compares of 1 KiB blocks first: an opcode changes a row or two, so most blocks are equal and only the
    // others are compared row by row.
    for (let block = 0; block < memory.length; block += BLOCK) {
      const blockEnd = Math.min(block + BLOCK, memory.length);
      const same = blockEnd <= this.length && now.compare(before, block, blockEnd, block, blockEnd) === 0;
      for (let at = block; at < blockEnd; at += 32) {
        const i = at >> 5;
        const end = Math.min(at + 32, memory.length);
        if (same || (end <= this.length && now.compare(before, at, end, at, end) === 0)) rows[i] = this.rows[i];
        else {
          rows[i] = now.toString('hex', at, end);
          fresh++;
        }
      }
    }
    if (this.copy.length < memory.length) this.copy = Buffer.allocUnsafe(Math.max(memory.length, this.copy.length * 2));
    this.copy.set(memory);
    this.length = memory.length;
    this.rows = rows;
    return { values: rows, freshBytes: fresh * stringBytes(64), jsonChars, shared: false };
  }
}

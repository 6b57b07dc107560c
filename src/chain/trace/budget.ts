/**
 * The memory one trace request may take (`maxResultBytes`), counted as the process spends it: the objects and strings
 * the tracers hold while the request runs, plus its answer's JSON text as many times as answering copies it
 * (`JSON_COPIES`). One budget covers every transaction a request traces (a block's, a filter's).
 *
 * V8's sizes on a 64-bit build without pointer compression (Node's default): a flat one-byte string is a 16-byte
 * header and its characters rounded up to 8; an array is 48 bytes and a pointer per element; a small object ~24
 * bytes and a pointer per field. The struct logger charges each entry with these (struct-logger.ts); the other
 * tracers report a rough answer size, checked here at every slice of the trace and charged when their transaction ends.
 */
import { TraceLimitError } from './types.js';

/** Heap bytes of a flat one-byte string of `chars` characters. */
export const stringBytes = (chars: number): number => 16 + ((chars + 7) & ~7);
/** Heap bytes of an array of `length` pointers. */
export const arrayBytes = (length: number): number => 48 + 8 * length;
/** Heap bytes of an object with `fields` fields. */
export const objectBytes = (fields: number): number => 24 + 8 * fields;
/**
 * What an answer's JSON text costs the process while it answers, in multiples of its length: the string
 * JSON.stringify grows (its parts and the joined string) and the bytes sent. Measured with bench/trace-memory.ts: a
 * 36 MiB answer (struct logs with enableMemory, whose rows share their strings) raised the peak RSS by ~165 MiB.
 */
export const JSON_COPIES = 4;

/**
 * What a tracer that reports only its answer's size (`sizeEstimate`) holds: its frames and strings, about the
 * answer's size, and the answer's JSON copies.
 */
export const heldFor = (answerBytes: number): number => answerBytes * (1 + JSON_COPIES);

export class TraceBudget {
  private spent = 0;

  /** `limit` 0 = no limit. */
  constructor(readonly limit: number) {}

  get bytes(): number {
    return this.spent;
  }

  /** Adds `bytes` to what the request holds; throws once the total is past the limit. */
  charge(bytes: number): void {
    this.spent += bytes;
    this.check(0);
  }

  /** Throws when what is charged plus `pending` (a tracer's answer not yet charged) is past the limit. */
  check(pending: number): void {
    const total = this.spent + pending;
    if (this.limit > 0 && total > this.limit) {
      throw new TraceLimitError(
        'resultBytes',
        this.limit,
        `trace result of about ${total} bytes is above the limit of ${this.limit} bytes`,
      );
    }
  }
}

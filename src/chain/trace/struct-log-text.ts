/**
 * The struct logger (struct-logger.ts) writing its answer as JSON text as it goes, for the RPC answer of a trace:
 * no object per entry and no JSON.stringify of ~1,000 of them afterwards. Each entry is written once it is complete,
 * i.e. when the next one starts (the tracer's later calls only ever amend the last entry: the gas a CALL forwards,
 * the error of a failed frame, an SLOAD's slot value). Its answer is the bytes JSON.stringify gives for the
 * StructLogger's (same fields, same order, same caps and budget charges); the differential test
 * (struct-log-text.test.ts) holds them equal.
 */
import { bytesToUnprefixedHex } from '@ethereumjs/util';
import { JSON_COPIES, type TraceBudget, arrayBytes, objectBytes, stringBytes } from './budget.js';
import { JsonText } from './json.js';
import { touchSlots } from './struct-log-slots.js';
import { MemoryColumn, StackColumn } from './struct-log-values.js';
import { ENTRY_HEAP, ENTRY_JSON, SLOT_JSON } from './struct-logger.js';
import { TraceLimitError, type StepInfo, type StructLoggerConfig, type Tracer, type TxEnd } from './types.js';

/** Entries per chunk of the answer's text. */
const CHUNK = 64;

/** The entry being written: its fields as the StructLogger's object would have them. */
interface OpenEntry {
  head: string;
  gasCost: number;
  /** `,"depth":…` and the switches' fields that follow it, written. */
  tail: string;
  storage: string | undefined;
  error: string | undefined;
}

export class StructLogText implements Tracer {
  /** Entries written, joined `CHUNK` at a time into one flat string (see `close`). */
  private readonly chunks: string[] = [];
  /** Entries written since the last chunk, each a JSON object. */
  private pending: string[] = [];
  private open: OpenEntry | undefined;
  private count = 0;
  private readonly storage = new Map<string, Record<string, string>>();
  private readonly stack = new StackColumn();
  private readonly memory = new MemoryColumn();
  /** The memory column's last array and its text (an unchanged memory repeats the text). */
  private memoryRows: string[] | undefined;
  private memoryText = '';
  private end: TxEnd | undefined;
  readonly asyncSteps: boolean;

  constructor(
    private readonly config: StructLoggerConfig,
    private readonly maxEntries: number,
    private readonly budget: TraceBudget,
  ) {
    this.asyncSteps = config.disableStorage !== true;
  }

  awaitsOp(op: number): boolean {
    return op === 0x54 && this.asyncSteps;
  }

  step(s: StepInfo): Promise<void> | undefined {
    const limit = this.config.limit ?? 0;
    if (limit > 0 && this.count >= limit) return undefined;
    if (this.maxEntries > 0 && this.count >= this.maxEntries) {
      throw new TraceLimitError(
        'structLogs',
        this.maxEntries,
        `struct logger entries above the limit of ${this.maxEntries}`,
      );
    }
    let heap = ENTRY_HEAP;
    let json = ENTRY_JSON + s.opName.length;
    let tail = `,"depth":${s.depth}`;
    if (this.config.disableStack !== true) {
      const column = this.stack.of(s.stack);
      tail += column.values.length === 0 ? ',"stack":[]' : `,"stack":["${column.values.join('","')}"]`;
      heap += arrayBytes(column.values.length) + column.freshBytes;
      json += 11 + column.jsonChars;
    }
    if (this.config.enableMemory === true && s.memory.length > 0) {
      const column = this.memory.of(s.memory);
      if (column.values !== this.memoryRows) {
        this.memoryRows = column.values;
        this.memoryText = column.values.length === 0 ? '[]' : `["${column.values.join('","')}"]`;
      }
      tail += `,"memory":${this.memoryText}`;
      heap += (column.shared ? 0 : arrayBytes(column.values.length)) + column.freshBytes;
      json += 12 + column.jsonChars;
    }
    if (this.config.enableReturnData === true && s.returnData.length > 0) {
      const text = `0x${Buffer.from(s.returnData.buffer, s.returnData.byteOffset, s.returnData.length).toString('hex')}`;
      tail += `,"returnData":"${text}"`;
      heap += stringBytes(text.length);
      json += text.length + 17;
    }
    if (s.refund > 0n) {
      tail += `,"refund":${Number(s.refund)}`;
      json += 20;
    }
    this.close();
    const entry: OpenEntry = {
      head: `{"pc":${s.pc},"op":"${s.opName}","gas":${Number(s.gas)},"gasCost":`,
      gasCost: Number(s.gasCost),
      tail,
      storage: undefined,
      error: undefined,
    };
    this.open = entry;
    this.count++;
    this.budget.charge(heap + JSON_COPIES * json);
    if (this.config.disableStorage === true) return undefined;
    return touchSlots(s, this.storage, (slots) => this.keepStorage(entry, slots));
  }

  private keepStorage(entry: OpenEntry, slots: Record<string, string>): void {
    entry.storage = JSON.stringify(slots);
    const count = Object.keys(slots).length;
    this.budget.charge(objectBytes(2 * count) + stringBytes(64) * 2 + JSON_COPIES * (12 + count * SLOT_JSON));
  }

  callGas(forwarded: bigint): void {
    if (this.open !== undefined) this.open.gasCost += Number(forwarded);
  }

  exit(exit: { readonly error: string | undefined; readonly reverted: boolean }): void {
    if (exit.error === undefined || exit.reverted) return;
    if (this.open !== undefined && this.open.error === undefined) this.open.error = exit.error;
  }

  txEnd(end: TxEnd): void {
    this.end = end;
  }

  /** Writes the open entry: nothing amends it once the next one starts. */
  private close(): void {
    const e = this.open;
    if (e === undefined) return;
    let text = `${e.head}${e.gasCost}${e.tail}`;
    if (e.storage !== undefined) text += `,"storage":${e.storage}`;
    if (e.error !== undefined) text += `,"error":${JSON.stringify(e.error)}`;
    this.pending.push(`${text}}`);
    this.open = undefined;
    // An entry is a string of ~10 pieces (V8 joins strings lazily): joined into one flat string, a chunk of entries
    // is one object for the young generation's collector to copy instead of hundreds, which made those collections
    // most of a trace's time (measured with --trace-gc over bench/trace.ts's countdown).
    if (this.pending.length === CHUNK) {
      this.chunks.push(this.pending.join(','));
      this.pending = [];
    }
  }

  result(): JsonText {
    this.close();
    if (this.pending.length > 0) {
      this.chunks.push(this.pending.join(','));
      this.pending = [];
    }
    const gas = Number(this.end?.gasUsed ?? 0n);
    const failed = this.end?.failed ?? false;
    const returnValue = bytesToUnprefixedHex(this.end?.returnValue ?? new Uint8Array(0));
    return new JsonText(
      `{"gas":${gas},"failed":${failed},"returnValue":"${returnValue}","structLogs":[${this.chunks.join(',')}]}`,
    );
  }
}

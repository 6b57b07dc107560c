/**
 * geth's default tracer, the struct logger: one entry per opcode (pc, op, gas before it, its cost, depth from 1,
 * and by switch the stack, memory, the storage the frame has touched, the last call's return data, the refund
 * counter), and the transaction's gas, failure and return value (hex without 0x, as geth's
 * ExecutionResult and core-geth write it; Anvil adds 0x). Encodings are geth's (StructLogRes): stack words
 * as 0x quantities, memory as 32-byte rows and storage keys and values as 64 hex digits without 0x.
 * `limit` stops recording silently as geth does; `maxEntries` is the node's cap and stops the trace instead.
 */
import { bytesToUnprefixedHex } from '@ethereumjs/util';
import { JSON_COPIES, type TraceBudget, arrayBytes, objectBytes, stringBytes } from './budget.js';
import { touchSlots } from './struct-log-slots.js';
import { MemoryColumn, StackColumn } from './struct-log-values.js';
import { TraceLimitError, type StepInfo, type StructLoggerConfig, type Tracer, type TxEnd } from './types.js';

export interface StructLogJson {
  pc: number;
  op: string;
  gas: number;
  gasCost: number;
  depth: number;
  error?: string;
  stack?: string[];
  memory?: string[];
  storage?: Record<string, string>;
  returnData?: string;
  refund?: number;
}

/** An entry's object (up to 11 fields) and its place in the list. */
export const ENTRY_HEAP = objectBytes(11) + 8;
/** `{"pc":…,"op":"…","gas":…,"gasCost":…,"depth":…},` without the op name, numbers at their usual widths. */
export const ENTRY_JSON = 60;
/** A storage slot in the answer: 64 + 64 hex digits, quotes, colon, comma. */
export const SLOT_JSON = 134;

export class StructLogger implements Tracer {
  private readonly logs: StructLogJson[] = [];
  /** Per contract address (hex): the slots its frames read or wrote so far. */
  private readonly storage = new Map<string, Record<string, string>>();
  private readonly stack = new StackColumn();
  private readonly memory = new MemoryColumn();
  private end: TxEnd | undefined;
  /** SLOAD entries read the slot's value from the state. */
  readonly asyncSteps: boolean;

  constructor(
    private readonly config: StructLoggerConfig,
    /** The node's cap on entries (0 = none). */
    private readonly maxEntries: number,
    /** The request's memory budget, charged with each entry as it is made: entries are most of a trace's size. */
    private readonly budget: TraceBudget,
  ) {
    this.asyncSteps = config.disableStorage !== true;
  }

  /** Only an SLOAD entry waits (for the slot's value). */
  awaitsOp(op: number): boolean {
    return op === 0x54 && this.asyncSteps;
  }

  step(s: StepInfo): Promise<void> | undefined {
    const limit = this.config.limit ?? 0;
    if (limit > 0 && this.logs.length >= limit) return undefined;
    if (this.maxEntries > 0 && this.logs.length >= this.maxEntries) {
      throw new TraceLimitError(
        'structLogs',
        this.maxEntries,
        `struct logger entries above the limit of ${this.maxEntries}`,
      );
    }
    const entry: StructLogJson = {
      pc: s.pc,
      op: s.opName,
      gas: Number(s.gas),
      gasCost: Number(s.gasCost),
      depth: s.depth,
    };
    let heap = ENTRY_HEAP;
    let json = ENTRY_JSON + s.opName.length;
    if (this.config.disableStack !== true) {
      const column = this.stack.of(s.stack);
      entry.stack = column.values;
      heap += arrayBytes(column.values.length) + column.freshBytes;
      json += 11 + column.jsonChars;
    }
    if (this.config.enableMemory === true && s.memory.length > 0) {
      const column = this.memory.of(s.memory);
      entry.memory = column.values;
      heap += (column.shared ? 0 : arrayBytes(column.values.length)) + column.freshBytes;
      json += 12 + column.jsonChars;
    }
    if (this.config.enableReturnData === true && s.returnData.length > 0) {
      entry.returnData = `0x${Buffer.from(s.returnData.buffer, s.returnData.byteOffset, s.returnData.length).toString('hex')}`;
      heap += stringBytes(entry.returnData.length);
      json += entry.returnData.length + 17;
    }
    if (s.refund > 0n) {
      entry.refund = Number(s.refund);
      json += 20;
    }
    this.logs.push(entry);
    // Charged once the entry is kept: a cap passed stops the trace at this opcode, before anything else is built.
    this.budget.charge(heap + JSON_COPIES * json);
    if (this.config.disableStorage === true) return undefined;
    return touchSlots(s, this.storage, (slots) => this.keepStorage(entry, slots));
  }

  /** geth gives an SLOAD / SSTORE entry the frame's slots so far: a copy (later entries add to them). */
  private keepStorage(entry: StructLogJson, slots: Record<string, string>): void {
    entry.storage = { ...slots };
    const count = Object.keys(slots).length;
    this.budget.charge(objectBytes(2 * count) + stringBytes(64) * 2 + JSON_COPIES * (12 + count * SLOT_JSON));
  }

  /**
   * geth counts the gas a CALL-family opcode hands to the callee in that opcode's cost; the EVM reports it when the
   * callee's frame opens (`forwarded`: without the value stipend, which is free).
   */
  callGas(forwarded: bigint): void {
    const last = this.logs[this.logs.length - 1];
    if (last !== undefined) last.gasCost += Number(forwarded);
  }

  /** geth marks the entry where a frame failed with the error (the EVM reports it after the step). */
  exit(exit: { readonly error: string | undefined; readonly reverted: boolean }): void {
    if (exit.error === undefined || exit.reverted) return;
    const last = this.logs[this.logs.length - 1];
    if (last !== undefined && last.error === undefined) last.error = exit.error;
  }

  txEnd(end: TxEnd): void {
    this.end = end;
  }

  result(): { gas: number; failed: boolean; returnValue: string; structLogs: StructLogJson[] } {
    return {
      gas: Number(this.end?.gasUsed ?? 0n),
      failed: this.end?.failed ?? false,
      returnValue: bytesToUnprefixedHex(this.end?.returnValue ?? new Uint8Array(0)),
      structLogs: this.logs,
    };
  }
}

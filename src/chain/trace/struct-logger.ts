/**
 * geth's default tracer, the struct logger: one entry per opcode (pc, op, gas before it, its cost, depth from 1,
 * and by switch the stack, memory, the storage the frame has touched, the last call's return data, the refund
 * counter), and the transaction's gas, failure and return value (hex without 0x, as geth's
 * ExecutionResult and core-geth write it; Anvil adds 0x). Encodings are geth's (StructLogRes): stack words
 * as 0x quantities, memory as 32-byte rows and storage keys and values as 64 hex digits without 0x.
 * `limit` stops recording silently as geth does; `maxEntries` is the node's cap and stops the trace instead.
 */
import { Address, bytesToUnprefixedHex } from '@ethereumjs/util';
import { wordBytes } from './hooks.js';
import { bytesToWord } from './json.js';
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

const word64 = (v: bigint): string => v.toString(16).padStart(64, '0');

export class StructLogger implements Tracer {
  private readonly logs: StructLogJson[] = [];
  /** Per contract address (hex): the slots its frames read or wrote so far. */
  private readonly storage = new Map<string, Record<string, string>>();
  private end: TxEnd | undefined;
  private bytes = 0;

  constructor(
    private readonly config: StructLoggerConfig,
    /** The node's cap on entries (0 = none). */
    private readonly maxEntries: number,
    /** The node's cap on the answer's size (0 = none), checked on every entry: entries are most of a trace's size. */
    private readonly maxBytes: number,
  ) {}

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
    if (this.maxBytes > 0 && this.bytes > this.maxBytes) {
      throw new TraceLimitError(
        'resultBytes',
        this.maxBytes,
        `trace result of about ${this.bytes} bytes is above the limit of ${this.maxBytes} bytes`,
      );
    }
    const entry: StructLogJson = {
      pc: s.pc,
      op: s.opName,
      gas: Number(s.gas),
      gasCost: Number(s.gasCost),
      depth: s.depth,
    };
    this.bytes += 80;
    if (this.config.disableStack !== true) {
      entry.stack = s.stack.map((v) => `0x${v.toString(16)}`);
      this.bytes += entry.stack.length * 20;
    }
    if (this.config.enableMemory === true && s.memory.length > 0) {
      const rows: string[] = [];
      for (let i = 0; i < s.memory.length; i += 32) rows.push(bytesToUnprefixedHex(s.memory.subarray(i, i + 32)));
      entry.memory = rows;
      this.bytes += rows.length * 68;
    }
    if (this.config.enableReturnData === true && s.returnData.length > 0) {
      entry.returnData = `0x${bytesToUnprefixedHex(s.returnData)}`;
      this.bytes += s.returnData.length * 2;
    }
    if (s.refund > 0n) entry.refund = Number(s.refund);
    this.logs.push(entry);
    if (this.config.disableStorage === true || (s.op !== 0x54 && s.op !== 0x55) || s.stack.length < 1) return undefined;
    const top = s.stack.length - 1;
    const key = bytesToUnprefixedHex(s.address);
    let slots = this.storage.get(key);
    if (slots === undefined) this.storage.set(key, (slots = {}));
    const slot = s.stack[top];
    if (s.op === 0x55) {
      if (s.stack.length < 2) return undefined;
      slots[word64(slot)] = word64(s.stack[top - 1]);
      entry.storage = { ...slots };
      this.bytes += Object.keys(slots).length * 132;
      return undefined;
    }
    const frameSlots = slots;
    return s.state.getStorage(new Address(s.address), wordBytes(slot)).then((value) => {
      frameSlots[word64(slot)] = word64(bytesToWord(value));
      entry.storage = { ...frameSlots };
      this.bytes += Object.keys(frameSlots).length * 132;
    });
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

  sizeEstimate(): number {
    return this.bytes;
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

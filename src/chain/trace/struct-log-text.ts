/**
 * The struct logger (struct-logger.ts) writing its answer as JSON text as it goes, for the RPC answer of a trace:
 * no object per entry and no JSON.stringify of ~1,000 of them afterwards. Entries go as bytes into one buffer
 * (json-bytes.ts; stack and memory columns in struct-log-columns.ts). The tracer's later calls only ever amend the
 * last entry (the gas a CALL forwards, the error of a failed frame, an SLOAD's slot value): that entry stays open at
 * the end of the buffer, its gasCost rewritten in place, until the next one starts. Its answer is the bytes
 * JSON.stringify gives for the StructLogger's (same fields, same order, same caps and budget charges); the
 * differential test (test/chain/trace/fast-path.test.ts) holds them equal.
 */
import { bytesToUnprefixedHex } from '@ethereumjs/util';
import { JSON_COPIES, type TraceBudget, arrayBytes, objectBytes, stringBytes } from './budget.js';
import { AsciiPiece, JsonBytes, putPiece, putUint } from './json-bytes.js';
import { JsonText } from './json.js';
import { MemoryText, StackText } from './struct-log-columns.js';
import { touchSlots } from './struct-log-slots.js';
import { ENTRY_HEAP, ENTRY_JSON, SLOT_JSON } from './struct-logger.js';
import { TraceLimitError, type StepInfo, type StructLoggerConfig, type Tracer, type TxEnd } from './types.js';

const SLOAD = 0x54;
const SSTORE = 0x55;
const FIRST_PC = new AsciiPiece('{"pc":');
const NEXT_PC = new AsciiPiece(',{"pc":');
const GAS_COST = new AsciiPiece(',"gasCost":');
const DEPTH = new AsciiPiece(',"depth":');
const ENTRY_FIXED = NEXT_PC.length + GAS_COST.length + DEPTH.length;

/** The text of each opcode name's part of an entry, `,"op":"NAME","gas":`, made once per name. */
const opTexts = new Map<string, AsciiPiece>();
function opText(name: string): AsciiPiece {
  let text = opTexts.get(name);
  if (text === undefined) opTexts.set(name, (text = new AsciiPiece(`,"op":"${name}","gas":`)));
  return text;
}
/**
 * Op names by opcode byte, and their entry text, as last seen (a fork may name a byte differently); shared by every
 * trace (per trace, filling these arrays was ~2.5 KB of garbage).
 */
const opNames: (string | undefined)[] = new Array(256).fill(undefined);
const opPieces: (AsciiPiece | undefined)[] = new Array(256).fill(undefined);

/**
 * Each opcode's last fee and its value as a number: a fixed fee is the same BigInt every time, and comparing it
 * costs less than converting it again (BigInt to Number was a tenth of an entry's writing time).
 */
const feeBigs: bigint[] = new Array(256).fill(-1n);
const feeNumbers: number[] = new Array(256).fill(0);
function feeOf(op: number, fee: bigint): number {
  if (feeBigs[op] === fee) return feeNumbers[op]!;
  const n = Number(fee);
  feeBigs[op] = fee;
  feeNumbers[op] = n;
  return n;
}

function opPieceOf(op: number, name: string): AsciiPiece {
  if (opNames[op] !== name) {
    opNames[op] = name;
    opPieces[op] = opText(name);
  }
  return opPieces[op]!;
}

export class StructLogText implements Tracer {
  private readonly out = new JsonBytes();
  private count = 0;
  /** The last entry is written but for its storage, error and closing brace. */
  private open = false;
  /** Where the open entry's gasCost digits are, and its value. */
  private gasCostAt = 0;
  private gasCostEnd = 0;
  private gasCost = 0;
  private openStorage: string | undefined;
  private openError: string | undefined;
  private readonly storage = new Map<string, Record<string, string>>();
  private readonly stack = new StackText();
  private readonly memory = new MemoryText();
  private end: TxEnd | undefined;
  readonly asyncSteps: boolean;
  /** The config's switches, read once (a step reads them all). */
  private readonly limit: number;
  private readonly withStack: boolean;
  private readonly withMemory: boolean;
  private readonly withReturnData: boolean;

  constructor(
    config: StructLoggerConfig,
    private readonly maxEntries: number,
    private readonly budget: TraceBudget,
  ) {
    this.asyncSteps = config.disableStorage !== true;
    this.limit = config.limit ?? 0;
    this.withStack = config.disableStack !== true;
    this.withMemory = config.enableMemory === true;
    this.withReturnData = config.enableReturnData === true;
  }

  awaitsOp(op: number): boolean {
    return op === SLOAD && this.asyncSteps;
  }

  step(s: StepInfo): Promise<void> | undefined {
    if (this.limit > 0 && this.count >= this.limit) return undefined;
    if (this.maxEntries > 0 && this.count >= this.maxEntries) {
      throw new TraceLimitError(
        'structLogs',
        this.maxEntries,
        `struct logger entries above the limit of ${this.maxEntries}`,
      );
    }
    this.close();
    const { out } = this;
    const opPiece = opPieceOf(s.op, s.opName);
    // Up to the stack: the fixed text, the op's, and five numbers of at most 16 digits.
    out.reserve(ENTRY_FIXED + opPiece.length + 5 * 16);
    const buf = out.buf;
    let p = putPiece(out, out.pos, this.count === 0 ? FIRST_PC : NEXT_PC);
    p = putUint(buf, p, s.pc);
    p = putPiece(out, p, opPiece);
    p = putUint(buf, p, Number(s.gas));
    p = putPiece(out, p, GAS_COST);
    this.gasCostAt = p;
    this.gasCost = feeOf(s.op, s.gasCost);
    p = putUint(buf, p, this.gasCost);
    this.gasCostEnd = p;
    p = putPiece(out, p, DEPTH);
    out.pos = putUint(buf, p, s.depth);
    let heap = ENTRY_HEAP;
    let json = ENTRY_JSON + s.opName.length;
    if (this.withStack) {
      const store = s.stackStore;
      const n = store === undefined ? s.stack.length : s.stackLength!;
      this.stack.write(out, store ?? s.stack, n);
      heap += arrayBytes(n) + this.stack.freshBytes;
      json += 11 + this.stack.jsonChars;
    }
    if (this.withMemory && s.memory.length > 0) {
      const column = this.memory;
      column.write(out, s.memory);
      heap += (column.shared ? 0 : arrayBytes(column.rows)) + column.freshBytes;
      json += 12 + column.jsonChars;
    }
    if (this.withReturnData && s.returnData.length > 0) {
      out.ascii(',"returnData":"0x');
      out.hexBytes(s.returnData);
      out.ascii('"');
      const chars = 2 + 2 * s.returnData.length;
      heap += stringBytes(chars);
      json += chars + 17;
    }
    if (s.refund > 0n) {
      out.ascii(',"refund":');
      out.uint(Number(s.refund));
      json += 20;
    }
    this.open = true;
    this.count++;
    this.budget.charge(heap + JSON_COPIES * json);
    if (!this.asyncSteps || (s.op !== SLOAD && s.op !== SSTORE)) return undefined;
    const entry = this.count;
    return touchSlots(s, this.storage, (slots) => this.keepStorage(entry, slots));
  }

  private keepStorage(entry: number, slots: Record<string, string>): void {
    // The entry is still open: the step that made it waits for its slot's value before the next one starts.
    if (this.open && entry === this.count) this.openStorage = JSON.stringify(slots);
    const count = Object.keys(slots).length;
    this.budget.charge(objectBytes(2 * count) + stringBytes(64) * 2 + JSON_COPIES * (12 + count * SLOT_JSON));
  }

  callGas(forwarded: bigint): void {
    if (!this.open) return;
    this.gasCost += Number(forwarded);
    const moved = this.out.splice(this.gasCostAt, this.gasCostEnd, String(this.gasCost));
    this.gasCostEnd += moved;
    this.memory.moved(this.gasCostAt, moved);
  }

  exit(exit: { readonly error: string | undefined; readonly reverted: boolean }): void {
    if (exit.error === undefined || exit.reverted) return;
    if (this.open && this.openError === undefined) this.openError = exit.error;
  }

  txEnd(end: TxEnd): void {
    this.end = end;
  }

  /** Ends the open entry: nothing amends it once the next one starts. */
  private close(): void {
    if (!this.open) return;
    const { out } = this;
    if (this.openStorage !== undefined) {
      out.ascii(',"storage":');
      out.ascii(this.openStorage);
      this.openStorage = undefined;
    }
    if (this.openError !== undefined) {
      out.ascii(',"error":');
      out.utf8Text(JSON.stringify(this.openError));
      this.openError = undefined;
    }
    out.ascii('}');
    this.open = false;
  }

  result(): JsonText {
    this.close();
    const gas = Number(this.end?.gasUsed ?? 0n);
    const failed = this.end?.failed ?? false;
    const returnValue = bytesToUnprefixedHex(this.end?.returnValue ?? new Uint8Array(0));
    const head = `{"gas":${gas},"failed":${failed},"returnValue":"${returnValue}","structLogs":[`;
    const { pieces, release } = this.out.finish(head, ']}');
    return new JsonText(pieces, release);
  }
}

/**
 * The reference's traces: geth's struct logger and callTracer shapes, built straight from @ethereumjs's own `step`,
 * `beforeMessage`, `afterMessage` and `newContract` events on the reference VM, with none of the engine's tracing
 * code (its hook layer, tracers, replay) — only the engine's table of geth's error texts and its JSON encoders of
 * values, which are names, not behaviour. Conventions the engine documents (geth's): a CALL-family entry's gasCost
 * includes the gas handed to the callee (without the value stipend); the entry where a frame failed carries the
 * error; SLOAD/SSTORE entries carry the slots the contract's frames touched so far; SELFDESTRUCT is a frame of its own.
 */
import type { EVM, EVMResult, InterpreterStep, Message } from '@ethereumjs/evm';
import type { TypedTransaction } from '@ethereumjs/tx';
import { type Address, bytesToHex, bytesToUnprefixedHex } from '@ethereumjs/util';
import type { RunTxResult, VM } from '@ethereumjs/vm';
import { gethError } from '../../../src/chain/trace/geth-errors.js';
import { revertReason } from '../../../src/chain/trace/json.js';

export interface RefStructLog {
  pc: number;
  op: string;
  gas: number;
  gasCost: number;
  depth: number;
  stack: string[];
  memory?: string[];
  storage?: Record<string, string>;
  refund?: number;
  error?: string;
}

export interface RefFrame {
  type: string;
  from: string;
  to?: string;
  gas: string;
  gasUsed: string;
  input: string;
  output?: string;
  error?: string;
  revertReason?: string;
  calls?: RefFrame[];
  value?: string;
}

export interface ReferenceTrace {
  readonly structLogs: { gas: number; failed: boolean; returnValue: string; structLogs: RefStructLog[] };
  readonly callFrame: RefFrame;
}

const FRAME_OPS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL', 'CREATE', 'CREATE2']);
const q = (v: bigint | number): string => `0x${v.toString(16)}`;
const w64 = (v: bigint): string => v.toString(16).padStart(64, '0');
const hexWord = (b: Uint8Array): bigint => (b.length === 0 ? 0n : BigInt(bytesToHex(b)));

function memoryRows(memory: Uint8Array): string[] {
  const rows: string[] = [];
  for (let i = 0; i < memory.length; i += 32) rows.push(Buffer.from(memory.subarray(i, i + 32)).toString('hex'));
  return rows;
}

function addressOf(word: bigint): Uint8Array {
  return Uint8Array.from(Buffer.from(w64(word & ((1n << 160n) - 1n)).slice(24), 'hex'));
}

interface OpenFrame extends RefFrame {
  calls: RefFrame[];
}

export class ReferenceTracer {
  private readonly logs: RefStructLog[] = [];
  private readonly storage = new Map<string, Record<string, string>>();
  private readonly frames: OpenFrame[] = [];
  private root: OpenFrame | undefined;
  private lastOp = '';
  private lastOpByte = 0;
  private lastAddress: Uint8Array = new Uint8Array(20);
  private readonly evm: EVM;
  private detachAll: (() => void) | undefined;

  constructor(
    vm: VM,
    private readonly tx: TypedTransaction,
    private readonly withMemory = false,
  ) {
    this.evm = vm.evm as EVM;
  }

  attach(): void {
    const step = (e: InterpreterStep, resume?: (r?: unknown) => void): void => {
      this.onStep(e).then(
        () => resume?.(),
        () => resume?.(),
      );
    };
    const before = (m: Message): void => this.enter(m);
    const after = (r: EVMResult): void => this.exit(r);
    const created = (e: { address: Address }): void => {
      const top = this.frames[this.frames.length - 1];
      if (top !== undefined) top.to = e.address.toString();
    };
    this.evm.events.on('step', step);
    this.evm.events.on('beforeMessage', before);
    this.evm.events.on('afterMessage', after);
    this.evm.events.on('newContract', created);
    this.detachAll = () => {
      this.evm.events.off('step', step);
      this.evm.events.off('beforeMessage', before);
      this.evm.events.off('afterMessage', after);
      this.evm.events.off('newContract', created);
    };
  }

  detach(): void {
    this.detachAll?.();
  }

  private async onStep(e: InterpreterStep): Promise<void> {
    const name = e.opcode.name;
    this.lastOp = name;
    this.lastOpByte = e.opcode.code;
    this.lastAddress = e.address.bytes;
    const entry: RefStructLog = {
      pc: e.pc,
      op: name,
      gas: Number(e.gasLeft),
      gasCost: Number(e.opcode.dynamicFee ?? BigInt(e.opcode.fee)),
      depth: e.depth + 1,
      stack: e.stack.map((v) => q(v)),
    };
    if (this.withMemory && e.memory.length > 0) entry.memory = memoryRows(e.memory);
    if (e.gasRefund > 0n) entry.refund = Number(e.gasRefund);
    this.logs.push(entry);
    const top = e.stack.length - 1;
    if ((name === 'SLOAD' && top >= 0) || (name === 'SSTORE' && top >= 1)) {
      const key = bytesToUnprefixedHex(e.address.bytes);
      const slots = this.storage.get(key) ?? {};
      this.storage.set(key, slots);
      const slot = e.stack[top]!;
      slots[w64(slot)] =
        name === 'SSTORE'
          ? w64(e.stack[top - 1]!)
          : w64(hexWord(await e.stateManager.getStorage(e.address, Uint8Array.from(Buffer.from(w64(slot), 'hex')))));
      entry.storage = { ...slots };
    }
    if (name === 'SELFDESTRUCT' && top >= 0) {
      const parent = this.frames[this.frames.length - 1];
      parent?.calls.push({
        type: 'SELFDESTRUCT',
        from: e.address.toString(),
        to: bytesToHex(addressOf(e.stack[top]!)),
        gas: '0x0',
        gasUsed: '0x0',
        input: '0x',
        value: q(e.account.balance),
      });
    }
  }

  private enter(m: Message): void {
    const depth = m.depth;
    const type = depth > 0 && FRAME_OPS.has(this.lastOp) ? this.lastOp : m.to === undefined ? 'CREATE' : 'CALL';
    if (depth > 0 && (type === 'CALL' || type === 'CALLCODE' || type === 'DELEGATECALL' || type === 'STATICCALL')) {
      const stipend = (type === 'CALL' || type === 'CALLCODE') && m.value > 0n ? 2300n : 0n;
      const last = this.logs[this.logs.length - 1];
      if (last !== undefined) last.gasCost += Number(m.gasLimit - stipend);
    }
    const frame: OpenFrame = {
      type,
      from: depth === 0 ? m.caller.toString() : bytesToHex(this.lastAddress),
      ...(m.to !== undefined ? { to: m.codeAddress.toString() } : {}),
      gas: q(depth === 0 ? this.tx.gasLimit : m.gasLimit),
      gasUsed: '0x0',
      input: bytesToHex(m.data),
      calls: [],
      ...(type !== 'STATICCALL' ? { value: q(m.value) } : {}),
    };
    if (this.frames.length === 0) this.root = frame;
    this.frames.push(frame);
  }

  private exit(r: EVMResult): void {
    const frame = this.frames.pop()!;
    const exec = r.execResult;
    const err = exec.exceptionError?.error;
    frame.gasUsed = q(exec.executionGasUsed);
    if (r.createdAddress !== undefined && frame.to === undefined) frame.to = r.createdAddress.toString();
    if (err === undefined) {
      if (exec.returnValue.length > 0) frame.output = bytesToHex(exec.returnValue);
    } else {
      frame.error = gethError(err, this.lastOpByte);
      if (err === 'revert' && exec.returnValue.length > 0) {
        frame.output = bytesToHex(exec.returnValue);
        const reason = revertReason(exec.returnValue);
        if (reason !== undefined) frame.revertReason = reason;
      }
      if (frame.type === 'CREATE' || frame.type === 'CREATE2') delete frame.to;
      const last = this.logs[this.logs.length - 1];
      if (err !== 'revert' && last !== undefined && last.error === undefined) last.error = frame.error;
    }
    this.frames[this.frames.length - 1]?.calls.push(frame);
  }

  finish(r: RunTxResult): ReferenceTrace {
    const root = this.root!;
    root.gasUsed = q(r.totalGasSpent);
    return {
      structLogs: {
        gas: Number(r.totalGasSpent),
        failed: r.execResult.exceptionError !== undefined,
        returnValue: bytesToUnprefixedHex(r.execResult.returnValue),
        structLogs: this.logs,
      },
      callFrame: tidy(root),
    };
  }
}

/** The JSON's shape: no empty `calls`. */
function tidy(frame: RefFrame): RefFrame {
  const { calls, ...rest } = frame;
  return calls !== undefined && calls.length > 0 ? { ...rest, calls: calls.map(tidy) } : rest;
}

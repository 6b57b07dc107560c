/**
 * MSTORE, MLOAD, SLOAD and CALLDATALOAD for call VMs, without @ethereumjs/evm's trips through hex strings (and
 * PUSHes without per-push rule checks: `analysedPush`; STOP, ADD, SUB, JUMP and JUMPI from lean-flow-opcodes.ts;
 * KECCAK256 and LOGs from lean-log-opcodes.ts; SLOAD and SSTORE as whole lane steps from lean-storage-opcodes.ts).
 * The dev miner's assembly runs on such VMs too (block-runner.ts `leanEvm`).
 *
 * The library turns a 256-bit stack word into memory bytes as `setLengthLeft(bigIntToBytes(word), 32)` (the word
 * printed as hex, parsed back, then padded by spreading both arrays into a new one) and bytes into a word as
 * `BigInt(bytesToHex(bytes))`: in a view call (an ERC-20 balanceOf) MSTORE alone was ~6% of the CPU. Here the same
 * values go through a 32-byte scratch buffer and a DataView (evm-words.ts). Each handler keeps its
 * library order of stack pops, memory reads and writes and state reads, so errors (stack underflow) are the same;
 * the gas handlers are the library's. `leanOpcodes` replaces the entries in one EVM's own opcode table (the EVM
 * builds its table per instance; the jump-analysis cache keys its answers by that table).
 * `test/chain/engine/call-lean-path.test.ts` runs random bytecode against the library's handlers.
 */

import { EVMError } from '@ethereumjs/evm';
import { bytesWord, scratch, scratchWord, wordBytes } from './evm-words.js';
import { flowHandlers } from './lean-flow-opcodes.js';
import { hashLogHandlers } from './lean-log-opcodes.js';
import { type LaneStep, storageLaneSteps } from './lean-storage-opcodes.js';

// The library's members used here (its names; typed loosely, as sync-step.ts does).
interface Stack {
  pop(): bigint;
  popN(n: number): bigint[];
  push(value: bigint): void;
}
interface Memory {
  read(offset: number, size: number, avoidCopy?: boolean): Uint8Array;
  write(offset: number, size: number, value: Uint8Array): void;
}
interface RunState {
  readonly stack: Stack;
  readonly memory: Memory;
  readonly interpreter: {
    getCallData(): Uint8Array;
    storageLoad(key: Uint8Array): Promise<Uint8Array>;
  };
}
type Handler = (runState: RunState, common?: unknown) => void | Promise<void>;
interface PushState {
  readonly shouldDoJumpAnalysis: boolean;
  readonly cachedPushes: Record<number, bigint>;
  readonly opCode: number;
  programCounter: number;
}
interface OpcodeEntry {
  readonly opHandler: Handler;
  readonly syncGas?: SyncGas;
  readonly laneStep?: LaneStep;
  readonly syncHandler?: boolean;
}

/** ADDRESS, ORIGIN, CALLER, CALLVALUE, CALLDATALOAD, CALLDATASIZE, RETURNDATASIZE, COINBASE…GASLIMIT. */
const SYNC_READERS = [0x30, 0x32, 0x33, 0x34, 0x35, 0x36, 0x3d, 0x41, 0x42, 0x43, 0x44, 0x45];

const handlers: Record<number, Handler> = {
  // CALLDATALOAD: the 32 bytes at `pos`, zero past the end of the call data.
  0x35(runState) {
    const pos = runState.stack.pop();
    const data = runState.interpreter.getCallData();
    if (pos > BigInt(data.length)) {
      runState.stack.push(0n);
      return;
    }
    const i = Number(pos);
    scratch.fill(0);
    scratch.set(data.subarray(i, i + 32));
    runState.stack.push(scratchWord());
  },
  // MLOAD
  0x51(runState) {
    const pos = runState.stack.pop();
    scratch.set(runState.memory.read(Number(pos), 32, true));
    runState.stack.push(scratchWord());
  },
  // MSTORE (Memory.write copies the bytes)
  0x52(runState) {
    const popped = runState.stack.popN(2);
    runState.memory.write(Number(popped[0]!), 32, wordBytes(popped[1]!));
  },
  // SLOAD: the key is a fresh array (the state manager may keep it)
  async 0x54(runState) {
    const key = runState.stack.pop();
    const value = await runState.interpreter.storageLoad(wordBytes(key).slice());
    runState.stack.push(value.length ? bytesWord(value) : 0n);
  },
};

interface Common {
  param(name: string): bigint;
}
type GasRunState = RunState & {
  memoryWordCount: bigint;
  highestMemCost: bigint;
  readonly opCode: number;
  stack: { peek(n?: number): bigint[] };
  readonly interpreter: { isStatic(): boolean };
};
/** A dynamic-gas handler that needs no await: the library's (async) one for the same opcode, step for step. */
export type SyncGas = (runState: GasRunState, gas: bigint, common: Common) => bigint;

/** The library's `subMemUsage` (opcodes/util.ts): the gas of growing memory to cover offset + length. */
function memoryGas(runState: GasRunState, offset: bigint, length: bigint, common: Common): bigint {
  if (length === 0n) return 0n;
  const newMemoryWordCount = wordsOf(offset + length);
  if (newMemoryWordCount <= runState.memoryWordCount) return 0n;
  const words = newMemoryWordCount;
  let cost = words * common.param('memoryGas') + (words * words) / common.param('quadCoefficientDivGas');
  if (cost > runState.highestMemCost) {
    const currentHighestMemCost = runState.highestMemCost;
    runState.highestMemCost = cost;
    cost -= currentHighestMemCost;
  }
  runState.memoryWordCount = newMemoryWordCount;
  return cost;
}

/** The library's `divCeil(bytes, 32)` for bytes ≥ 0 (stack words are unsigned). */
const wordsOf = (bytes: bigint): bigint => (bytes % 32n === 0n ? bytes / 32n : bytes / 32n + 1n);

/** Offset and length on top of the stack, memory as RETURN, REVERT and KECCAK256 charge it. */
const rangeGas: SyncGas = (runState, gas, common) => {
  const [offset, length] = runState.stack.peek(2);
  return gas + memoryGas(runState, offset!, length!, common);
};

/** LOG0…LOG4: not in a static frame; memory, then each topic and each byte of data. */
const logGas: SyncGas = (runState, gas, common) => {
  if (runState.interpreter.isStatic()) throw new EVMError(EVMError.errorMessages.STATIC_STATE_CHANGE);
  const [offset, length] = runState.stack.peek(2);
  const topics = BigInt(runState.opCode - 0xa0);
  gas += memoryGas(runState, offset!, length!, common);
  return gas + common.param('logTopicGas') * topics + length! * common.param('logDataGas');
};

/** gas.ts's handlers of the opcodes whose dynamic gas is memory growth (KECCAK256's words, LOG's topics and data). */
const syncGas: Record<number, SyncGas> = {
  0x20: (runState, gas, common) => {
    const [offset, length] = runState.stack.peek(2);
    return gas + memoryGas(runState, offset!, length!, common) + common.param('keccak256WordGas') * wordsOf(length!);
  },
  0x51: (runState, gas, common) => gas + memoryGas(runState, runState.stack.peek()[0]!, 32n, common),
  0x52: (runState, gas, common) => gas + memoryGas(runState, runState.stack.peek()[0]!, 32n, common),
  0x53: (runState, gas, common) => gas + memoryGas(runState, runState.stack.peek()[0]!, 1n, common),
  0xa0: logGas,
  0xa1: logGas,
  0xa2: logGas,
  0xa3: logGas,
  0xa4: logGas,
  0xf3: rangeGas,
  0xfd: rangeGas,
};

/**
 * Gives `evm` (an @ethereumjs/evm EVM) the handlers above in its own opcode table, and marks the entries whose gas
 * `syncGas` computes (sync-step.ts then runs those steps without a promise); false if it has no table.
 */
export function leanOpcodes(evm: object): boolean {
  const table = (evm as { _opcodeMap?: OpcodeEntry[] })._opcodeMap;
  if (!Array.isArray(table)) return false;
  const codes = new Set([...Object.keys(handlers), ...Object.keys(syncGas)].map(Number));
  for (const code of codes) {
    const entry = table[code];
    if (entry === undefined || typeof entry.opHandler !== 'function') return false;
  }
  for (const code of codes) {
    table[code] = {
      ...table[code]!,
      ...(handlers[code] !== undefined ? { opHandler: handlers[code] } : {}),
      ...(syncGas[code] !== undefined ? { syncGas: syncGas[code] } : {}),
    };
  }
  // STOP, ADD, SUB, JUMP, JUMPI, KECCAK256 and LOGs around the library's own handlers (lean-flow-opcodes.ts,
  // lean-log-opcodes.ts).
  for (const [code, lean] of Object.entries({ ...flowHandlers, ...hashLogHandlers })) {
    const entry = table[Number(code)];
    if (entry !== undefined && typeof entry.opHandler === 'function')
      table[Number(code)] = { ...entry, opHandler: lean(entry.opHandler as never) as unknown as Handler };
  }
  // Readers of the call's and block's environment: the library marks them async (its step then awaits each), yet
  // their handlers are plain functions of the run state (checked here: an async one keeps the mark).
  for (const code of SYNC_READERS) {
    const entry = table[code];
    if (entry !== undefined && entry.opHandler.constructor.name === 'Function')
      table[code] = { ...entry, syncHandler: true };
  }
  const common = (evm as { common?: Parameters<typeof storageLaneSteps>[0] }).common;
  // SLOAD and SSTORE as whole steps in the lane (lean-storage-opcodes.ts).
  if (common !== undefined)
    for (const [code, laneStep] of Object.entries(storageLaneSteps(common))) {
      const entry = table[Number(code)];
      if (entry !== undefined) table[Number(code)] = { ...entry, laneStep };
    }
  if (common !== undefined && !common.isActivatedEIP(6800) && !common.isActivatedEIP(7864)) {
    for (let code = 0x60; code <= 0x7f; code++) {
      const entry = table[code];
      if (entry !== undefined && typeof entry.opHandler === 'function')
        table[code] = { ...entry, opHandler: analysedPush(entry.opHandler) };
    }
  }
  return true;
}

/**
 * PUSH1…PUSH32 once the frame's code is analysed: the value the analysis decoded, as the library's handler takes
 * it, without the handler's two EIP checks per push (code-chunk gas, EIP-6800/7864: only for rules without them).
 * Before the analysis the library's handler decodes the bytes itself.
 */
function analysedPush(library: Handler): Handler {
  return (runState, common) => {
    const rs = runState as RunState & PushState;
    if (rs.shouldDoJumpAnalysis) return library(runState, common);
    rs.stack.push(rs.cachedPushes[rs.programCounter]!);
    rs.programCounter += rs.opCode - 0x5f;
  };
}

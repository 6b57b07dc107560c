/**
 * STOP, RETURN, ADD, SUB, JUMP and JUMPI for call VMs (installed with the other lean opcodes, call-opcodes.ts),
 * without the library's allocations: its handlers pop their operands into a new array (`popN`), reduce a sum or
 * difference with a BigInt division (`mod(x, 2^256)`), and compare a jump's target with the code size as a new
 * BigInt. Here the operands are read where they lie on the stack and the result written in place; a jump's target is
 * checked as a number; STOP and RETURN end their frame without a throw. Anything out of the ordinary (too few
 * operands, an invalid target) is left to the library's handler, called on the untouched stack, so its errors and
 * their messages are its own. In a callTracer trace of a 1,000-step countdown loop, SUB and JUMPI were ~5 % of the
 * node's samples (bench/trace-profile.ts).
 * `test/chain/engine/call-lean-path.test.ts` runs random bytecode against the library's handlers.
 */

const TWO_POW256 = 1n << 256n;
/** Above any code size: a target past it is an invalid jump, left to the library. */
const MAX_TARGET = 0xffffffffn;

// The library's members used here (its names; typed loosely, as sync-step.ts does).
interface Stack {
  readonly _store: bigint[];
  _len: number;
}
interface RunState {
  readonly stack: Stack;
  readonly code: Uint8Array;
  readonly validJumps: Uint8Array;
  programCounter: number;
  readonly memory: { read(offset: number, size: number): Uint8Array };
  readonly interpreter: { readonly _result: { returnValue?: Uint8Array } };
}
type Handler = (runState: RunState, common?: unknown) => void;

/** The lean handler of each opcode here, built around the library's (called where the lean one steps aside). */
export const flowHandlers: Record<number, (library: Handler) => Handler> = {
  // STOP: the frame ends as at the end of its code. The library's handler throws its STOP error, which the frame's
  // loop catches to end the frame without an error: a throw per frame, ~2 % of a callTracer trace's samples.
  0x00: () => (runState) => {
    runState.programCounter = runState.code.length;
  },
  // RETURN: the library's handler sets the frame's output and then throws the STOP error (`finish`): here the output
  // is set the same way and the frame ends as STOP's does. The throw and its unwinding were ~10-20 µs of each
  // dev-chain ERC-20 transfer's block (a one-transaction block's frame, bench/transfer-phases.ts under perf).
  0xf3: (library) => (runState, common) => {
    const { stack } = runState;
    const len = stack._len;
    if (len < 2) return library(runState, common);
    const store = stack._store;
    const offset = store[len - 1]!;
    const length = store[len - 2]!;
    stack._len = len - 2;
    runState.interpreter._result.returnValue =
      length === 0n ? new Uint8Array(0) : runState.memory.read(Number(offset), Number(length));
    runState.programCounter = runState.code.length;
  },
  // ADD: the top word plus the next, modulo 2^256.
  0x01: (library) => (runState, common) => {
    const { stack } = runState;
    const len = stack._len;
    if (len < 2) return library(runState, common);
    const store = stack._store;
    const sum = store[len - 1]! + store[len - 2]!;
    store[len - 2] = sum >= TWO_POW256 ? sum - TWO_POW256 : sum;
    stack._len = len - 1;
  },
  // SUB: the top word minus the next, modulo 2^256.
  0x03: (library) => (runState, common) => {
    const { stack } = runState;
    const len = stack._len;
    if (len < 2) return library(runState, common);
    const store = stack._store;
    const a = store[len - 1]!;
    const b = store[len - 2]!;
    store[len - 2] = a >= b ? a - b : a - b + TWO_POW256;
    stack._len = len - 1;
  },
  // JUMP
  0x56: (library) => (runState, common) => {
    const { stack } = runState;
    const len = stack._len;
    if (len < 1) return library(runState, common);
    const target = validTarget(runState, stack._store[len - 1]!);
    if (target < 0) return library(runState, common);
    stack._len = len - 1;
    runState.programCounter = target;
  },
  // JUMPI: the target on top, the condition below it; no jump (whatever the target) when the condition is zero.
  0x57: (library) => (runState, common) => {
    const { stack } = runState;
    const len = stack._len;
    if (len < 2) return library(runState, common);
    const store = stack._store;
    if (store[len - 2] === 0n) {
      stack._len = len - 2;
      return;
    }
    const target = validTarget(runState, store[len - 1]!);
    if (target < 0) return library(runState, common);
    stack._len = len - 2;
    runState.programCounter = target;
  },
};

/** `word` as a JUMPDEST of the frame's code (the library's `jumpIsValid`), or -1. */
function validTarget(runState: RunState, word: bigint): number {
  if (word > MAX_TARGET) return -1;
  const target = Number(word);
  return target < runState.code.length && runState.validJumps[target] === 1 ? target : -1;
}

/**
 * A few hand-assembled contracts for the tracing tests and bench: each step of their code is written out, so a
 * trace can be read against it. `asm` takes opcode names and `push(value)`; `deployCode` wraps runtime code in
 * init code that returns it.
 */
const OPS: Readonly<Record<string, number>> = {
  STOP: 0x00,
  ADD: 0x01,
  SUB: 0x03,
  LT: 0x10,
  GT: 0x11,
  ISZERO: 0x15,
  CALLER: 0x33,
  CALLVALUE: 0x34,
  CALLDATALOAD: 0x35,
  CODECOPY: 0x39,
  POP: 0x50,
  MLOAD: 0x51,
  MSTORE: 0x52,
  SLOAD: 0x54,
  SSTORE: 0x55,
  JUMP: 0x56,
  JUMPI: 0x57,
  GAS: 0x5a,
  JUMPDEST: 0x5b,
  DUP1: 0x80,
  DUP2: 0x81,
  DUP6: 0x85,
  SWAP1: 0x90,
  LOG0: 0xa0,
  LOG1: 0xa1,
  CREATE: 0xf0,
  CALL: 0xf1,
  CALLCODE: 0xf2,
  RETURN: 0xf3,
  DELEGATECALL: 0xf4,
  CREATE2: 0xf5,
  STATICCALL: 0xfa,
  REVERT: 0xfd,
  SELFDESTRUCT: 0xff,
};

export type Piece = string | { readonly push: bigint | string };

export const push = (value: bigint | number | string): Piece => ({
  push: typeof value === 'number' ? BigInt(value) : value,
});

export function asm(pieces: readonly Piece[]): string {
  let hex = '';
  for (const p of pieces) {
    if (typeof p === 'string') {
      const code = OPS[p];
      if (code === undefined) throw new Error(`unknown opcode ${p}`);
      hex += code.toString(16).padStart(2, '0');
      continue;
    }
    let digits = typeof p.push === 'bigint' ? p.push.toString(16) : p.push.replace(/^0x/, '');
    if (digits.length % 2 === 1) digits = `0${digits}`;
    const size = digits.length / 2;
    hex += (0x5f + size).toString(16) + digits;
  }
  return hex;
}

/** Init code returning `runtime` (hex without 0x). */
export function deployCode(runtime: string): string {
  const len = (runtime.length / 2).toString(16).padStart(4, '0');
  return `0x61${len}80600c6000396000f3${runtime}`;
}

/** CALL-family call with no value word (DELEGATECALL, STATICCALL): args in mem[0..32), output over them. */
const frameCall = (op: string, gas: number, to: string, withValue: bigint | undefined, argSize = 32): Piece[] => [
  push(32),
  push(0),
  push(argSize),
  push(0),
  ...(withValue === undefined ? [] : [push(withValue)]),
  push(to),
  push(gas),
  op,
  'POP',
];

const TOPIC = `0x${'aa'.repeat(32)}`;

/** Stores its 32-byte argument in slot 0, logs it, returns slot 0. */
export const storeRuntime = asm([
  push(0),
  'CALLDATALOAD',
  'DUP1',
  push(0),
  'SSTORE',
  push(0),
  'MSTORE',
  push(TOPIC),
  push(32),
  push(0),
  'LOG1',
  push(0),
  'SLOAD',
  push(0),
  'MSTORE',
  push(32),
  push(0),
  'RETURN',
]);

/** Reverts with Error("nope"). */
export const reverterRuntime = asm([
  push(0x08c379a0n << 224n),
  push(0),
  'MSTORE',
  push(0x20),
  push(4),
  'MSTORE',
  push(4),
  push(36),
  'MSTORE',
  push(0x6e6f7065n << 224n),
  push(68),
  'MSTORE',
  push(100),
  push(0),
  'REVERT',
]);

/** Loops until its gas runs out. */
export const loopRuntime = asm(['JUMPDEST', push(0), 'JUMP']);

/** Calls an empty account over and over until out of gas: a call frame per turn for call tracers' answers. */
export const callLoopRuntime = asm([
  'JUMPDEST',
  ...[0, 0, 0, 0, 0].map(push),
  push('0x1234'),
  'GAS',
  'CALL',
  'POP',
  push(0),
  'JUMP',
]);

/**
 * Grows its memory by 256 bytes a turn (mem[off] = off, off += 256) until its gas runs out: with enableMemory every
 * struct-log entry carries the whole, ever larger memory (30 M gas reach ~120 KiB, ~3,000 entries).
 */
export const memoryGrowRuntime = asm([
  push(0),
  'JUMPDEST',
  'DUP1',
  'DUP1',
  'MSTORE',
  push(256),
  'ADD',
  push(2),
  'JUMP',
]);

/** Counts down from its argument in a loop (for a trace of a chosen number of steps), then stops. */
export const countdownRuntime = asm([
  push(0),
  'CALLDATALOAD',
  'JUMPDEST',
  push(1),
  'SWAP1',
  'SUB',
  'DUP1',
  push(3),
  'JUMPI',
  'STOP',
]);

/** Init code of a child whose code self-destructs to its caller (11 bytes). */
const childInit = `${asm([push(0x33ff), push(0), 'MSTORE', push(2), push(30), 'RETURN'])}`;

/** Calls `store` every way (CALL with value, DELEGATECALL, STATICCALL, CALLCODE), a reverting contract, a
 * precompile, a gas-eating loop, creates a child (CREATE with value) and calls it to self-destruct, CREATE2s
 * another, and logs. */
export function driverRuntime(store: string, reverter: string, loop: string): string {
  const initWord = BigInt(`0x${childInit}`) << BigInt((32 - childInit.length / 2) * 8);
  return asm([
    push(7),
    push(0),
    'MSTORE',
    ...frameCall('CALL', 100_000, store, 1n),
    ...frameCall('DELEGATECALL', 100_000, store, undefined),
    ...frameCall('STATICCALL', 100_000, store, undefined),
    ...frameCall('CALLCODE', 100_000, store, 0n),
    ...frameCall('CALL', 100_000, reverter, 0n, 0),
    ...frameCall('CALL', 100_000, '0x02', 0n),
    ...frameCall('CALL', 5_000, loop, 0n, 0),
    push(initWord),
    push(0),
    'MSTORE',
    push(11),
    push(0),
    push(5),
    'CREATE',
    push(0),
    push(0),
    push(0),
    push(0),
    push(0),
    'DUP6',
    push(50_000),
    'CALL',
    'POP',
    'POP',
    push(0x42),
    push(11),
    push(0),
    push(0),
    'CREATE2',
    'POP',
    push(32),
    push(0),
    'LOG0',
    'STOP',
  ]);
}

/**
 * A small EVM assembler with labels, for the differential tests' hand-written contracts: opcode names, `push(value)`
 * (the shortest PUSH, PUSH1 for 0: the code runs under rule sets before Spiral's PUSH0, which is written by name),
 * `label(name)` (a JUMPDEST) and `to(name)` (PUSH2 of a label's offset).
 */
const NAMES = [
  // 0x00
  'STOP ADD MUL SUB DIV SDIV MOD SMOD ADDMOD MULMOD EXP SIGNEXTEND',
  // 0x10
  'LT GT SLT SGT EQ ISZERO AND OR XOR NOT BYTE SHL SHR SAR',
  // 0x30
  'ADDRESS BALANCE ORIGIN CALLER CALLVALUE CALLDATALOAD CALLDATASIZE CALLDATACOPY CODESIZE CODECOPY GASPRICE ' +
    'EXTCODESIZE EXTCODECOPY RETURNDATASIZE RETURNDATACOPY EXTCODEHASH',
  // 0x40
  'BLOCKHASH COINBASE TIMESTAMP NUMBER DIFFICULTY GASLIMIT CHAINID SELFBALANCE BASEFEE',
  // 0x50
  'POP MLOAD MSTORE MSTORE8 SLOAD SSTORE JUMP JUMPI PC MSIZE GAS JUMPDEST',
];
const STARTS = [0x00, 0x10, 0x30, 0x40, 0x50];

const OPS = new Map<string, number>();
NAMES.forEach((row, i) => {
  for (const [j, name] of row.split(' ').entries()) OPS.set(name, STARTS[i]! + j);
});
OPS.set('PUSH0', 0x5f);
OPS.set('SHA3', 0x20);
OPS.set('KECCAK256', 0x20);
for (let i = 1; i <= 16; i++) {
  OPS.set(`DUP${i}`, 0x7f + i);
  OPS.set(`SWAP${i}`, 0x8f + i);
}
for (let i = 0; i <= 4; i++) OPS.set(`LOG${i}`, 0xa0 + i);
for (const [name, code] of [
  ['CREATE', 0xf0],
  ['CALL', 0xf1],
  ['CALLCODE', 0xf2],
  ['RETURN', 0xf3],
  ['DELEGATECALL', 0xf4],
  ['CREATE2', 0xf5],
  ['STATICCALL', 0xfa],
  ['REVERT', 0xfd],
  ['INVALID', 0xfe],
  ['SELFDESTRUCT', 0xff],
] as const) {
  OPS.set(name, code);
}

export type Piece = string | { push: bigint } | { label: string } | { to: string };

export const push = (value: bigint | number): Piece => ({ push: BigInt(value) });
export const label = (name: string): Piece => ({ label: name });
export const to = (name: string): Piece => ({ to: name });

function pushBytes(value: bigint): number[] {
  if (value === 0n) return [0x60, 0];
  const bytes: number[] = [];
  for (let v = value; v > 0n; v >>= 8n) bytes.unshift(Number(v & 0xffn));
  if (bytes.length > 32) throw new Error(`push of more than 32 bytes: ${value}`);
  return [0x5f + bytes.length, ...bytes];
}

/** Assembles `pieces` into bytecode. */
export function asm(pieces: readonly Piece[]): Uint8Array {
  const labels = new Map<string, number>();
  let offset = 0;
  // First pass: offsets (a label reference is always PUSH2, so sizes do not depend on the labels).
  for (const p of pieces) {
    if (typeof p === 'string') offset += 1;
    else if ('push' in p) offset += pushBytes(p.push).length;
    else if ('label' in p) labels.set(p.label, offset++);
    else offset += 3;
  }
  const out: number[] = [];
  for (const p of pieces) {
    if (typeof p === 'string') {
      const code = OPS.get(p);
      if (code === undefined) throw new Error(`unknown opcode ${p}`);
      out.push(code);
    } else if ('push' in p) out.push(...pushBytes(p.push));
    else if ('label' in p) out.push(0x5b);
    else {
      const at = labels.get(p.to);
      if (at === undefined) throw new Error(`unknown label ${p.to}`);
      out.push(0x61, at >> 8, at & 0xff);
    }
  }
  return Uint8Array.from(out);
}

/** Init code that returns `runtime`: PUSH2 size, DUP1, PUSH1 12, PUSH1 0, CODECOPY, PUSH1 0, RETURN (12 bytes), runtime. */
export function initCodeOf(runtime: Uint8Array): Uint8Array {
  const prefix = [0x61, runtime.length >> 8, runtime.length & 0xff, 0x80, 0x60, 12, 0x60, 0, 0x39, 0x60, 0, 0xf3];
  const out = new Uint8Array(prefix.length + runtime.length);
  out.set(prefix);
  out.set(runtime, prefix.length);
  return out;
}

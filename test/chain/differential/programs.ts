/**
 * The differential tests' contracts, written out by hand (asm.ts). One "churn" contract does everything a random
 * transaction asks of it; its calldata is an action byte, two words `a` and `b`, and an inner payload (the calldata
 * of a call it makes, or the init code of a contract it creates):
 *
 *   0 SSTORE(a, b) (b = 0 clears: refunds)      7 STATICCALL a with the payload (a write inside fails)
 *   1 SLOAD(a), LOG2, return it                  8 CREATE (value b) of the payload
 *   2 SSTORE(a, b) then REVERT                   9 CREATE2 (salt a, value b) of the payload
 *   3 loop until out of gas                     10 SELFDESTRUCT to a
 *   4 SSTORE(a, b) then INVALID                 11 slots a-1 … 0 set to i × b (b = 0: a clears, a refund each)
 *   5 CALL a with value b and the payload        12 BALANCE, EXTCODESIZE, EXTCODEHASH of a, BLOCKHASH … stored
 *   6 DELEGATECALL a with the payload           13 CALLCODE a with value b and the payload
 *                                               14 SSTORE(a, 1) then SSTORE(a, 0): a refund within the call
 *   anything else: STOP (accepts value)
 */
import { asm, initCodeOf, label, push, to, type Piece } from './asm.js';

export const ACTIONS = 15;

const A: Piece[] = [push(1), 'CALLDATALOAD'];
const B: Piece[] = [push(33), 'CALLDATALOAD'];
/** Inner payload's size (calldata beyond byte 65). */
const INNER_SIZE: Piece[] = [push(65), 'CALLDATASIZE', 'SUB'];
/** Copies the payload to memory 0; leaves its size on the stack. */
const COPY_INNER: Piece[] = [...INNER_SIZE, 'DUP1', push(65), push(0), 'CALLDATACOPY'];

/** A frame call of `op` with the payload as input, output to memory 0..32; stores its success at `slot`, logs its return data. */
function frameCall(op: 'CALL' | 'CALLCODE' | 'DELEGATECALL' | 'STATICCALL', slot: number): Piece[] {
  const withValue = op === 'CALL' || op === 'CALLCODE';
  return [
    ...COPY_INNER, // size
    push(32),
    push(0),
    'DUP3', // size
    push(0),
    ...(withValue ? B : []),
    ...A,
    'GAS',
    op,
    push(slot),
    'SSTORE',
    'POP',
    'RETURNDATASIZE',
    push(0),
    push(0),
    'RETURNDATACOPY',
    push(slot),
    'RETURNDATASIZE',
    push(0),
    'LOG1',
    'STOP',
  ];
}

const cases: Record<number, Piece[]> = {
  0: [...B, ...A, 'SSTORE', 'STOP'],
  1: [...A, 'SLOAD', 'DUP1', push(0), 'MSTORE', 'CALLER', ...A, push(32), push(0), 'LOG2', push(32), push(0), 'RETURN'],
  2: [...B, ...A, 'SSTORE', ...A, push(0), 'MSTORE', push(32), push(0), 'REVERT'],
  3: [label('spin'), to('spin'), 'JUMP'],
  4: [...B, ...A, 'SSTORE', 'INVALID'],
  5: frameCall('CALL', 0xff),
  6: frameCall('DELEGATECALL', 0xfd),
  7: frameCall('STATICCALL', 0xfc),
  8: [
    ...COPY_INNER,
    push(0),
    ...B,
    'CREATE',
    'DUP1',
    push(0xfe),
    'SSTORE',
    push(0),
    'MSTORE',
    push(32),
    push(0),
    'LOG0',
    'STOP',
  ],
  9: [
    ...COPY_INNER,
    ...A,
    'SWAP1',
    push(0),
    ...B,
    'CREATE2',
    'DUP1',
    push(0xfb),
    'SSTORE',
    push(0),
    'MSTORE',
    push(32),
    push(0),
    'LOG0',
    'STOP',
  ],
  10: [...A, 'SELFDESTRUCT'],
  11: [
    ...A,
    label('churn'),
    'DUP1',
    'ISZERO',
    to('churned'),
    'JUMPI',
    push(1),
    'SWAP1',
    'SUB',
    'DUP1',
    ...B,
    'MUL',
    'DUP2',
    'SSTORE',
    to('churn'),
    'JUMP',
    label('churned'),
    'STOP',
  ],
  12: [
    ...A,
    'BALANCE',
    ...A,
    'EXTCODESIZE',
    'XOR',
    ...A,
    'EXTCODEHASH',
    'XOR',
    'SELFBALANCE',
    'XOR',
    push(1),
    'NUMBER',
    'SUB',
    'BLOCKHASH',
    'XOR',
    'COINBASE',
    'XOR',
    'TIMESTAMP',
    'XOR',
    push(0xfa),
    'SSTORE',
    'STOP',
  ],
  13: frameCall('CALLCODE', 0xf9),
  14: [push(1), ...A, 'SSTORE', push(0), ...A, 'SSTORE', 'STOP'],
};

function churnPieces(): Piece[] {
  const dispatch: Piece[] = [push(0), 'CALLDATALOAD', push(248), 'SHR'];
  for (let k = 0; k < ACTIONS; k++) dispatch.push('DUP1', push(k), 'EQ', to(`case${k}`), 'JUMPI');
  dispatch.push('STOP');
  const bodies: Piece[] = [];
  for (let k = 0; k < ACTIONS; k++) bodies.push(label(`case${k}`), 'POP', ...cases[k]!);
  return [...dispatch, ...bodies];
}

export const churnRuntime = asm(churnPieces());
export const churnInit = initCodeOf(churnRuntime);

/** Init codes a creation may run: each makes a different kind of outcome. */
export const INIT_CODES: readonly { readonly name: string; readonly code: Uint8Array }[] = [
  { name: 'churn contract', code: churnInit },
  // Runtime CALLER SELFDESTRUCT: a contract that pays its caller out when called.
  { name: 'self-destructing contract', code: initCodeOf(asm(['CALLER', 'SELFDESTRUCT'])) },
  { name: 'reverting init', code: asm([push(7), push(1), 'SSTORE', push(0), push(0), 'REVERT']) },
  // Pre-EIP-6780 (ETC): a constructor's SELFDESTRUCT removes the new account.
  { name: 'self-destruct in init', code: asm([push(3), push(2), 'SSTORE', 'CALLER', 'SELFDESTRUCT']) },
  // EIP-3541: code starting with 0xEF is refused.
  { name: 'init returning 0xEF code', code: asm([push(0xef), push(0), 'MSTORE8', push(1), push(0), 'RETURN']) },
  { name: 'init out of gas', code: asm([label('l'), to('l'), 'JUMP']) },
  { name: 'empty init', code: new Uint8Array(0) },
  // PUSH0 exists from Spiral (EIP-3855): an invalid opcode before it.
  { name: 'init using PUSH0', code: asm(['PUSH0', 'PUSH0', 'RETURN']) },
  { name: 'init with a log and storage', code: asm([push(9), push(0), 'SSTORE', push(0), push(0), 'LOG0', 'STOP']) },
];

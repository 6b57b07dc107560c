/** @ethereumjs's EVM error texts in geth's words (core/vm/errors.go), as callTracer and the struct logger print them. */
const GETH_ERRORS: Readonly<Record<string, string>> = {
  revert: 'execution reverted',
  'out of gas': 'out of gas',
  'code store out of gas': 'contract creation code storage out of gas',
  'code size to deposit exceeds maximum code size': 'max code size exceeded',
  'invalid JUMP': 'invalid jump destination',
  'static state change': 'write protection',
  'create collision': 'contract address collision',
  'insufficient balance': 'insufficient balance for transfer',
  'invalid bytecode deployed': 'invalid code: must not begin with 0xef',
  'initcode exceeds max initcode size': 'max initcode size exceeded',
  'value out of range': 'return data out of bounds',
  'stack overflow': 'stack limit reached 1024 (1023)',
};

/** `opByte` is the opcode that failed (geth names it for an invalid opcode). */
export function gethError(error: string, opByte: number): string {
  if (error === 'invalid opcode') {
    return opByte === 0xfe
      ? 'invalid opcode: INVALID'
      : `invalid opcode: opcode 0x${opByte.toString(16).padStart(2, '0')} not defined`;
  }
  return GETH_ERRORS[error] ?? error;
}

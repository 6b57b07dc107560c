/**
 * geth's EVM error texts in OpenEthereum's words, for the traces that speak OpenEthereum (trace_*, and
 * flatCallTracer with `convertParityErrors`). Exact texts first, then by prefix.
 */
const PARITY_ERRORS: Readonly<Record<string, string>> = {
  'contract creation code storage out of gas': 'Out of gas',
  'out of gas': 'Out of gas',
  'gas uint64 overflow': 'Out of gas',
  'max code size exceeded': 'Out of gas',
  'invalid jump destination': 'Bad jump destination',
  'execution reverted': 'Reverted',
  'return data out of bounds': 'Out of bounds',
  'stack limit reached 1024 (1023)': 'Out of stack',
  'precompiled failed': 'Built-in failed',
  'invalid input length': 'Built-in failed',
};
const PARITY_ERROR_PREFIXES: readonly (readonly [string, string])[] = [
  ['invalid opcode:', 'Bad instruction'],
  ['stack underflow', 'Stack underflow'],
];

/** OpenEthereum's name for a geth error; undefined when OpenEthereum has none (the text then stays geth's). */
export function parityErrorOf(error: string): string | undefined {
  return PARITY_ERRORS[error] ?? PARITY_ERROR_PREFIXES.find(([prefix]) => error.startsWith(prefix))?.[1];
}

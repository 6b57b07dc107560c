/**
 * What a tracer of frames only (no `step`) is shown of the opcodes (trace/hooks.ts `attachFrames`, an op probe:
 * exec/op-probe.ts), and how often it looks at its caps.
 */
import type { EVM } from '@ethereumjs/evm';
import type { FrameType, Tracer } from './types.js';

/** The frame a CALL-family or CREATE opcode opens, by opcode byte (the probe's path, which has no names). */
export const FRAME_OF_OP: ReadonlyMap<number, FrameType> = new Map<number, FrameType>([
  [0xf0, 'CREATE'],
  [0xf1, 'CALL'],
  [0xf2, 'CALLCODE'],
  [0xf4, 'DELEGATECALL'],
  [0xf5, 'CREATE2'],
  [0xfa, 'STATICCALL'],
]);
/**
 * Steps between two looks at the caps and the clock for a tracer of frames only: its steps cost what an eth_call's
 * do (~0.1 µs), so about every 0.1 ms.
 */
export const FRAMES_CHECK_EVERY = 1024;

/**
 * The opcodes a tracer without `step` is shown (a flag per byte): those that open frames (their type and caller),
 * LOGs and SELFDESTRUCT where it takes them, and the invalid ones (an 'invalid opcode' error names the byte).
 */
export function probedOps(evm: EVM, tracer: Tracer): Uint8Array {
  const table = (evm as unknown as { _opcodeMap: ({ opcodeInfo: { isInvalid: boolean } } | undefined)[] })._opcodeMap;
  const kind = (tracer.log !== undefined ? 1 : 0) + (tracer.enter !== undefined ? 2 : 0);
  let byKind = probedOpsByTable.get(table);
  if (byKind === undefined) probedOpsByTable.set(table, (byKind = []));
  const known = byKind[kind];
  if (known !== undefined) return known;
  const ops = new Uint8Array(256);
  for (let op = 0; op < 256; op++) if (table[op]?.opcodeInfo.isInvalid !== false) ops[op] = 1;
  for (const op of FRAME_OF_OP.keys()) ops[op] = 1;
  if (tracer.log !== undefined) ops.fill(1, 0xa0, 0xa5);
  if (tracer.enter !== undefined) ops[0xff] = 1;
  byKind[kind] = ops;
  return ops;
}
/** `probedOps` answers per opcode table (an EVM's, fixed) and kind of tracer: they are only read. */
const probedOpsByTable = new WeakMap<object, Uint8Array[]>();

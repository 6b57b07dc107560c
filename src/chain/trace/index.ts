/**
 * geth-style tracing (debug_trace*): `traceTransaction`, `traceBlock` and `traceCall` with the struct logger or a
 * named tracer (callTracer, flatCallTracer, prestateTracer, 4byteTracer, noopTracer), under per-request caps.
 */
export { traceBlock, traceCall, traceTransaction, TraceReplayError } from './replay.js';
export type { TraceCallOptions, TraceChain, TxTrace } from './replay.js';
export type { TraceResult } from './tracers.js';
export { TraceLimitError } from './types.js';
export {
  SimulateError,
  simulate,
  type SimulateOptions,
  type SimulateStop,
  type SimulatedBlockEnv,
  type SimulatedBlockInput,
  type SimulatedBlockResult,
  type SimulatedCall,
  type SimulatedCallResult,
} from './simulate.js';
export { TraceBusyError, TraceSlots } from './slots.js';
export type {
  StructLoggerConfig,
  TraceCap,
  TraceLimits,
  TraceOptions,
  TracerName,
} from './types.js';
export { framesOf, type CallFrameJson } from './call-tracer.js';
export { parityErrorOf } from './parity-errors.js';
export { JsonText } from './json.js';
export type { FlatCallFrameJson } from './flat-call-tracer.js';
export type { OtsTraceJson } from './ots-tracer.js';
export type { OpcodeGasJson } from './opcode-gas-tracer.js';

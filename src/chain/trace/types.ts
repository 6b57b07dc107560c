/**
 * The shapes shared by the replay engine (replay.ts), the hook layer (hooks.ts) and the tracers: a tracer is a set
 * of callbacks over one transaction's execution, fed with engine values (bytes, bigint), and a `result()` that is
 * already the JSON its RPC answer carries (geth's shapes).
 */
import type { StateManagerInterface } from '@ethereumjs/common';

/** geth's frame types, as callTracer names them. */
export type FrameType = 'CALL' | 'CALLCODE' | 'DELEGATECALL' | 'STATICCALL' | 'CREATE' | 'CREATE2' | 'SELFDESTRUCT';

/** The transaction (or call) about to run, with the state before it. */
export interface TxStart {
  readonly from: Uint8Array;
  /** undefined for a contract creation. */
  readonly to: Uint8Array | undefined;
  /** For a creation: the address the contract gets. */
  readonly created: Uint8Array | undefined;
  readonly value: bigint;
  readonly gasLimit: bigint;
  readonly gasPrice: bigint;
  readonly input: Uint8Array;
  readonly coinbase: Uint8Array;
  /** The state before the transaction (read it before returning: it moves on once the transaction runs). */
  readonly state: StateManagerInterface;
}

/** One opcode about to run (gas before it, depth from 1 as geth counts). */
export interface StepInfo {
  readonly pc: number;
  readonly op: number;
  readonly opName: string;
  readonly gas: bigint;
  readonly gasCost: bigint;
  readonly refund: bigint;
  readonly depth: number;
  /** Bottom first, as the EVM holds it (not copied: read, never keep). */
  readonly stack: readonly bigint[];
  /**
   * Where a step can give it, the stack without a copy: the first `stackLength` words of `stackStore` (the
   * interpreter's own array; read during the step only).
   */
  readonly stackStore?: readonly bigint[];
  readonly stackLength?: number;
  /** Memory before the opcode (not copied). */
  readonly memory: Uint8Array;
  /** The account whose storage and balance the code works on. */
  readonly address: Uint8Array;
  /** Output of the last call this frame made (geth's returnData). */
  readonly returnData: Uint8Array;
  readonly state: StateManagerInterface;
}

/** A frame entered: the transaction's top call, or a call / creation made by code. */
export interface FrameEnter {
  readonly type: FrameType;
  /** 0 for the transaction's own frame. */
  readonly depth: number;
  readonly from: Uint8Array;
  /** For a creation, the new address as soon as it is known (it is filled in by the hook layer on `newContract`). */
  to: Uint8Array | undefined;
  readonly input: Uint8Array;
  readonly gas: bigint;
  /** undefined where geth leaves it out (STATICCALL). */
  readonly value: bigint | undefined;
  readonly precompile: boolean;
}

export interface FrameExit {
  readonly depth: number;
  readonly output: Uint8Array;
  readonly gasUsed: bigint;
  /** geth's error text ('execution reverted', 'out of gas', …); undefined on success. */
  readonly error: string | undefined;
  readonly reverted: boolean;
}

/** A LOG0…LOG4 about to run in the current frame. */
export interface LogInfo {
  readonly address: Uint8Array;
  readonly topics: readonly Uint8Array[];
  readonly data: Uint8Array;
  readonly depth: number;
}

export interface TxEnd {
  /** Gas the transaction was charged (refunds applied), as its receipt says. */
  readonly gasUsed: bigint;
  readonly failed: boolean;
  /** The top frame's output (revert data when it reverted). */
  readonly returnValue: Uint8Array;
  /** The state after the transaction. */
  readonly state: StateManagerInterface;
}

/**
 * The callbacks a tracer may implement. `txStart`/`txEnd`, and `step` where `asyncSteps` says so, may return a
 * promise (a read of the state): the EVM waits for it. A tracer that wants no opcode events leaves `step` out.
 */
export interface Tracer {
  /** True when `step` may return a promise (it reads the state): the EVM then awaits every opcode's event. */
  readonly asyncSteps?: boolean;
  /**
   * With `asyncSteps`: the opcodes whose `step` may return a promise (the others then run without an await); left
   * out, any may.
   */
  awaitsOp?(op: number): boolean;
  txStart?(tx: TxStart): void | Promise<void>;
  step?(step: StepInfo): void | Promise<void>;
  enter?(frame: FrameEnter): void;
  exit?(frame: FrameExit): void;
  log?(log: LogInfo): void;
  /** The gas a CALL-family opcode (the last step) forwarded to the frame it opened, stipend excluded. */
  callGas?(forwarded: bigint): void;
  txEnd?(end: TxEnd): void | Promise<void>;
  /** The answer, as JSON (geth's shape for this tracer). */
  result(): unknown;
  /** Rough size of the answer so far in bytes, for the result-size cap. */
  sizeEstimate?(): number;
}

/** The struct logger's switches (geth's logger.Config). */
export interface StructLoggerConfig {
  readonly disableStack?: boolean;
  readonly disableStorage?: boolean;
  readonly enableMemory?: boolean;
  readonly enableReturnData?: boolean;
  /** Most entries to record; 0 = no limit (geth stops recording silently at it). */
  readonly limit?: number;
}

/**
 * A registered tracer's name (registry.ts: geth's named ones, and `otsTracer`, which only the ots_* methods use).
 * Requests can only name the listed ones: the generated validator checks the spec's enum, composed from the registry.
 */
export type TracerName = string;

/** Caps on one trace request; a trace past one is stopped with `TraceLimitError`. */
export interface TraceLimits {
  /** Wall-clock limit in ms from the start of the request (0 = none). */
  readonly timeoutMs?: number;
  /** What to name as the time limit's source (the request's `timeout`, or a setting). */
  readonly timeoutSource?: string;
  /** Most struct-log entries (0 = none). */
  readonly maxStructLogs?: number;
  /** Most bytes of answer, estimated while tracing (0 = none). */
  readonly maxResultBytes?: number;
}

export interface TraceOptions {
  /** undefined = geth's default struct logger. */
  readonly tracer?: TracerName;
  /** The named tracer's config (callTracer: onlyTopCall, withLog; prestateTracer: diffMode). */
  readonly tracerConfig?: Readonly<Record<string, unknown>>;
  /** Struct-logger switches (ignored by the named tracers). */
  readonly logger?: StructLoggerConfig;
  readonly limits?: TraceLimits;
  /**
   * Trace on the generic path: @ethereumjs's `step` events and the struct logger's entries as objects. The
   * differential tests' reference for the default path (a step probe, exec/step-probe.ts, and entries written as
   * JSON text), whose answers must be the same bytes.
   */
  readonly generic?: boolean;
  /**
   * The struct logger's answer as JSON text (a `JsonText`, written entry by entry: struct-log-text.ts) for a caller
   * that sends it on as it is (debug_traceTransaction, debug_traceCall); not with `generic`.
   */
  readonly jsonText?: boolean;
}

/** Which cap stopped a trace; handlers answer it naming the cap and its setting (handlers/limits.ts's code). */
export type TraceCap = 'timeout' | 'structLogs' | 'resultBytes';

export class TraceLimitError extends Error {
  constructor(
    readonly cap: TraceCap,
    readonly limit: number,
    message: string,
  ) {
    super(message);
    this.name = 'TraceLimitError';
  }
}

/** A block that cannot be replayed (genesis, an unknown parent, a transaction that no longer applies). */
export class TraceReplayError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TraceReplayError';
  }
}

/**
 * Messages between the call pool (view/call-pool.ts) and its workers (call-worker.ts). Everything travels by
 * structured clone (bigints, byte arrays and maps included); nothing is shared.
 *
 * A block's state is named by `key` (block hash + state root, hex): the same block after a dev edit is another
 * state, so a worker never answers from what it read before the edit.
 */
import type { NetworkDefinition } from '../networks/types.js';
import type { CallMessage, CallResult } from './call.js';

/** What a worker needs to build the same Commons and decode the same headers as the main thread. */
export interface CallWorkerSetup {
  readonly network: NetworkDefinition;
  /** ECIP-1097: 16-field headers decode as checkpoint headers. */
  readonly checkpointing: boolean;
}

/** One call: the block's header fields (its environment), the root of its state, and the message. */
export interface CallJob {
  readonly kind: 'call';
  readonly id: number;
  readonly key: string;
  readonly header: readonly Uint8Array[];
  readonly stateRoot: Uint8Array;
  /** The message, its deadline as a wall-clock time (`performance.timeOrigin + at`): each thread has its own origin. */
  readonly msg: CallMessage;
}

/** Crash on demand (tests of a dead worker): the worker calls `process.exit(code)`. */
export interface ExitOrder {
  readonly kind: 'exit';
  readonly code: number;
}

/** The values asked for, in order: accounts as their fields (null = none), code, slots, hashes of ancestors. */
export interface ReadAnswer {
  readonly kind: 'reads';
  readonly id: number;
  readonly values: readonly ReadValue[];
  /** Reads that failed on the main thread (e.g. a fork's upstream), by index: those asks fail with the message. */
  readonly errors?: readonly (readonly [index: number, message: string])[];
}

export type ToWorker = CallJob | ExitOrder | ReadAnswer;

/** `a`ccount, `c`ode, `s`lot by address (and slot), `h`ash of the ancestor at a height. */
export type ReadItem =
  | readonly ['a', Uint8Array]
  | readonly ['c', Uint8Array]
  | readonly ['s', Uint8Array, Uint8Array]
  | readonly ['h', bigint];

export type AccountFields = readonly [nonce: bigint, balance: bigint, storageRoot: Uint8Array, codeHash: Uint8Array];
export type ReadValue = AccountFields | Uint8Array | null;

/** Reads a worker's calls missed, one message per tick of the worker. */
export interface ReadRequest {
  readonly kind: 'reads';
  readonly id: number;
  readonly key: string;
  readonly items: readonly ReadItem[];
}

/** How a call ended: its result, or the error the main thread rethrows (by name, so its class survives). */
export interface CallOutcome {
  readonly kind: 'done';
  readonly id: number;
  readonly result?: CallResult;
  readonly error?: {
    readonly name: 'timeout' | 'override' | 'other';
    readonly message: string;
    readonly limitMs?: number;
  };
}

export interface WorkerReady {
  readonly kind: 'ready';
}

export type FromWorker = CallOutcome | ReadRequest | WorkerReady;

/**
 * `value` with every byte array that is a view into a larger buffer copied out. Structured clone copies a view's
 * whole buffer: a header field decoded from a stored block, a slot value or return data cut from EVM memory would
 * take kilobytes each across (profiled as most of both threads' postMessage and GC time).
 */
export function compact<T>(value: T): T {
  if (value instanceof Uint8Array)
    return (value.byteOffset === 0 && value.byteLength === value.buffer.byteLength ? value : value.slice()) as T;
  if (Array.isArray(value)) return value.map(compact) as T;
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, compact(v)])) as T;
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = compact(v);
    return out as T;
  }
  return value;
}

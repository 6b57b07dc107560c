/**
 * eth_simulateV1 in engine terms (ethereum/execution-apis src/eth/execute.yaml): blocks of calls on top of a stored
 * block, what each call gave, and the reasons the whole simulation stops, one per error code of the spec.
 */
import type { Block } from '@ethereumjs/block';
import type { ReceiptLog } from '../codec/receipts.js';
import type { CallAccessListEntry } from '../exec/call.js';
import type { StateOverrides } from '../exec/overrides.js';

/** One call of a simulated block; unset fields take the spec's defaults (simulate.ts). */
export interface SimulatedCall {
  readonly from?: Uint8Array;
  readonly to?: Uint8Array;
  readonly data?: Uint8Array;
  readonly value?: bigint;
  readonly gas?: bigint;
  readonly gasPrice?: bigint;
  readonly nonce?: bigint;
  /** Given: the call runs as an EIP-2930 transaction carrying it. */
  readonly accessList?: readonly CallAccessListEntry[];
}

/** The header fields a simulated block may set. */
export interface SimulatedBlockEnv {
  readonly number?: bigint;
  readonly timestamp?: bigint;
  readonly gasLimit?: bigint;
  readonly coinbase?: Uint8Array;
  /** eth_callMany's blockOverride; the spec's blocks take the base block's. */
  readonly difficulty?: bigint;
}

export interface SimulatedBlockInput {
  readonly env?: SimulatedBlockEnv;
  readonly state?: StateOverrides;
  readonly calls: readonly SimulatedCall[];
}

export interface SimulateOptions {
  /** Nonces checked and contract senders refused, as in a real block. */
  readonly validation: boolean;
  readonly traceTransfers: boolean;
  /** Most simulated blocks, gaps included. */
  readonly maxBlocks: number;
  /** Most gas all calls together may be given. */
  readonly gasBudget: bigint;
  /**
   * eth_callMany's bundles rather than the spec's blocks: every block's number and time are given (no defaults, no
   * order checks, no gap filling), and each call gets the block's whole gas limit by default, as eth_call does.
   */
  readonly bundles?: boolean;
  /** Wall-clock limit, a `performance.now()` time. */
  readonly deadline?: { readonly at: number; readonly limitMs: number };
}

export interface SimulatedCallResult {
  readonly status: 0 | 1;
  readonly returnData: Uint8Array;
  readonly gasUsed: bigint;
  /** The call's logs, with its value transfers among them when traceTransfers is on. */
  readonly logs: readonly ReceiptLog[];
  /** Set on failure: a revert, or another EVM error (its name, e.g. 'out of gas'). */
  readonly error?: { readonly reverted: boolean; readonly message: string };
}

export interface SimulatedBlockResult {
  /** A block built as a miner builds one (roots, bloom, hash), never stored; its transactions are unsigned. */
  readonly block: Block;
  readonly senders: readonly Uint8Array[];
  readonly calls: readonly SimulatedCallResult[];
}

/** Why a simulation stopped; the handler gives each its spec code. */
export type SimulateStop =
  | 'nonceTooLow'
  | 'nonceTooHigh'
  | 'intrinsicGas'
  | 'insufficientFunds'
  | 'blockGasLimit'
  | 'blockNumberOrder'
  | 'blockTimestampOrder'
  | 'senderNotEoa'
  | 'initCodeTooLarge'
  | 'clientLimit'
  | 'invalidOverride'
  | 'rejected'
  | 'timeout';

export class SimulateError extends Error {
  constructor(
    readonly stop: SimulateStop,
    message: string,
  ) {
    super(message);
  }
}

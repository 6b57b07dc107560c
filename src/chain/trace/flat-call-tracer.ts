/**
 * geth's `flatCallTracer` (core-geth serves it too): callTracer's frames flattened into OpenEthereum-style traces,
 * each with its traceAddress and number of subtraces. Unlike trace_transaction, the top frame keeps callTracer's
 * gas (the transaction's gas limit) and gasUsed (the receipt's); errors stay in geth's words unless
 * `convertParityErrors`; calls to precompiles are left out unless `includePrecompiles`. The block and transaction
 * fields are placeholders (null, 0) that the RPC layer fills in where a transaction is being traced.
 */
import type { CallFrameJson } from './call-tracer.js';
import { OtsTracer } from './ots-tracer.js';
import { parityErrorOf } from './parity-errors.js';
import type { FrameEnter, FrameExit, Tracer, TxEnd, TxStart } from './types.js';
import { configFlag, registerTracer } from './registry.js';

export interface FlatCallTracerConfig {
  readonly convertParityErrors?: boolean;
  readonly includePrecompiles?: boolean;
}

export interface FlatCallFrameJson {
  action: Record<string, string>;
  blockHash: string | null;
  blockNumber: number;
  error?: string;
  result?: Record<string, string>;
  subtraces: number;
  traceAddress: number[];
  transactionHash: string | null;
  transactionPosition: number;
  type: 'call' | 'create' | 'suicide';
}

export class FlatCallTracer implements Tracer {
  /** callTracer's frames plus the precompiles called: a frame calling one is a precompile call. */
  private readonly calls = new OtsTracer();

  constructor(private readonly config: FlatCallTracerConfig) {}

  txStart(tx: TxStart): void {
    this.calls.txStart(tx);
  }

  enter(frame: FrameEnter): void {
    this.calls.enter(frame);
  }

  exit(frame: FrameExit): void {
    this.calls.exit(frame);
  }

  txEnd(end: TxEnd): void {
    this.calls.txEnd(end);
  }

  sizeEstimate(): number {
    return this.calls.sizeEstimate();
  }

  result(): FlatCallFrameJson[] {
    const { root, precompiles } = this.calls.result();
    if (root === undefined) return [];
    const called = new Set(precompiles);
    const skipped = (frame: CallFrameJson): boolean =>
      this.config.includePrecompiles !== true &&
      frame.to !== undefined &&
      (frame.type === 'CALL' || frame.type === 'STATICCALL') &&
      called.has(frame.to);
    const out: FlatCallFrameJson[] = [];
    this.flatten(root, [], 0, skipped, out);
    return out;
  }

  private flatten(
    frame: CallFrameJson,
    traceAddress: number[],
    depth: number,
    skipped: (frame: CallFrameJson) => boolean,
    out: FlatCallFrameJson[],
  ): void {
    const children = (frame.calls ?? []).filter((c) => !skipped(c));
    const flat: FlatCallFrameJson = {
      ...shapeOf(frame, depth),
      blockHash: null,
      blockNumber: 0,
      subtraces: children.length,
      traceAddress,
      transactionHash: null,
      transactionPosition: 0,
    };
    if (frame.error !== undefined) {
      const named = this.config.convertParityErrors === true ? parityErrorOf(frame.error) : undefined;
      flat.error = named ?? frame.error;
      // A revert's output (its reason) is worth keeping; any other failure has no result.
      if (frame.error !== 'execution reverted') delete flat.result;
    }
    out.push(sorted(flat));
    for (const [i, child] of children.entries()) this.flatten(child, [...traceAddress, i], depth + 1, skipped, out);
  }
}

/** The frame's type, action and result in OpenEthereum's terms. */
function shapeOf(frame: CallFrameJson, depth: number): Pick<FlatCallFrameJson, 'type' | 'action' | 'result'> {
  // Only a STATICCALL has no value; below the top frame geth reports it as 0.
  const value = frame.value ?? (depth > 0 ? '0x0' : undefined);
  switch (frame.type) {
    case 'CREATE':
    case 'CREATE2':
      return {
        type: 'create',
        action: { from: frame.from, gas: frame.gas, init: frame.input, ...(value ? { value } : {}) },
        result: { ...(frame.to ? { address: frame.to } : {}), code: frame.output ?? '0x', gasUsed: frame.gasUsed },
      };
    case 'SELFDESTRUCT':
      return {
        type: 'suicide',
        action: {
          address: frame.from,
          balance: frame.value ?? '0x0',
          ...(frame.to ? { refundAddress: frame.to } : {}),
        },
      };
    default:
      return {
        type: 'call',
        action: {
          callType: frame.type.toLowerCase(),
          from: frame.from,
          gas: frame.gas,
          input: frame.input,
          ...(frame.to ? { to: frame.to } : {}),
          ...(value ? { value } : {}),
        },
        result: { gasUsed: frame.gasUsed, output: frame.output ?? '0x' },
      };
  }
}

/** geth's field order (flatCallFrame's JSON), so answers read the same. */
function sorted(flat: FlatCallFrameJson): FlatCallFrameJson {
  const { action, blockHash, blockNumber, error, result, subtraces, traceAddress } = flat;
  return {
    action,
    blockHash,
    blockNumber,
    ...(error !== undefined ? { error } : {}),
    ...(result !== undefined ? { result } : {}),
    subtraces,
    traceAddress,
    transactionHash: flat.transactionHash,
    transactionPosition: flat.transactionPosition,
    type: flat.type,
  };
}

registerTracer({
  name: 'flatCallTracer',
  listed: true,
  config: {
    convertParityErrors: {
      type: 'boolean',
      description: "flatCallTracer: errors in OpenEthereum's words (Reverted, Out of gas, ...) instead of geth's.",
    },
    includePrecompiles: {
      type: 'boolean',
      description: 'flatCallTracer: keep the calls to precompiles (left out by default, as OpenEthereum does).',
    },
  },
  create: (config) =>
    new FlatCallTracer({
      convertParityErrors: configFlag(config, 'convertParityErrors'),
      includePrecompiles: configFlag(config, 'includePrecompiles'),
    }),
});

/**
 * geth's `callTracer`: the tree of frames (CALL, CALLCODE, DELEGATECALL, STATICCALL, CREATE, CREATE2,
 * SELFDESTRUCT) with gas, input, output, error and revert reason; `onlyTopCall` keeps the top frame only,
 * `withLog` adds each frame's logs with their position among its child calls (dropped where a frame failed).
 * Field order and omissions follow geth's callFrame JSON.
 */
import { hexBytes, quantity, revertReason } from './json.js';
import type { FrameEnter, FrameExit, LogInfo, Tracer, TxEnd, TxStart } from './types.js';
import { configFlag, registerTracer } from './registry.js';

export interface CallTracerConfig {
  readonly onlyTopCall?: boolean;
  readonly withLog?: boolean;
}

interface Frame {
  readonly enter: FrameEnter;
  gas: bigint;
  gasUsed: bigint;
  output: Uint8Array | undefined;
  error: string | undefined;
  revertReason: string | undefined;
  readonly calls: Frame[];
  readonly logs: { readonly log: LogInfo; readonly position: number }[];
}

export interface CallFrameJson {
  from: string;
  gas: string;
  gasUsed: string;
  to?: string;
  input: string;
  output?: string;
  error?: string;
  revertReason?: string;
  calls?: CallFrameJson[];
  logs?: { address: string; topics: string[]; data: string; position: string }[];
  value?: string;
  type: string;
}

/** Every frame of a call tree in execution order (parents before their children), with its depth (the top's is 0). */
export function* framesOf(frame: CallFrameJson, depth = 0): Generator<{ frame: CallFrameJson; depth: number }> {
  yield { frame, depth };
  for (const child of frame.calls ?? []) yield* framesOf(child, depth + 1);
}

export class CallTracer implements Tracer {
  private readonly stack: Frame[] = [];
  private root: Frame | undefined;
  private gasLimit = 0n;
  private bytes = 0;

  constructor(private readonly config: CallTracerConfig) {}

  txStart(tx: TxStart): void {
    this.gasLimit = tx.gasLimit;
  }

  enter(frame: FrameEnter): void {
    if (this.config.onlyTopCall === true && this.stack.length > 0) return;
    const f: Frame = {
      enter: frame,
      gas: frame.depth === 0 ? this.gasLimit : frame.gas,
      gasUsed: 0n,
      output: undefined,
      error: undefined,
      revertReason: undefined,
      calls: [],
      logs: [],
    };
    this.bytes += 200 + frame.input.length * 2;
    if (this.stack.length === 0) this.root = f;
    this.stack.push(f);
  }

  exit(exit: FrameExit): void {
    if (this.config.onlyTopCall === true && exit.depth > 0) return;
    const f = this.stack.pop();
    if (f === undefined) return;
    f.gasUsed = exit.gasUsed;
    this.bytes += exit.output.length * 2;
    if (exit.error === undefined) f.output = exit.output;
    else {
      f.error = exit.error;
      if (exit.reverted && exit.output.length > 0) {
        f.output = exit.output;
        f.revertReason = revertReason(exit.output);
      }
      if (this.config.withLog === true) f.logs.length = 0;
    }
    const parent = this.stack[this.stack.length - 1];
    if (parent !== undefined) {
      parent.calls.push(f);
      // A failed child's logs were never emitted; geth drops them from the whole subtree.
      if (f.error !== undefined) dropLogs(f);
    }
  }

  log(log: LogInfo): void {
    if (this.config.withLog !== true) return;
    const f = this.stack[this.stack.length - 1];
    if (f === undefined || (this.config.onlyTopCall === true && log.depth > 1)) return;
    f.logs.push({ log, position: f.calls.length });
    this.bytes += 200 + log.data.length * 2;
  }

  txEnd(end: TxEnd): void {
    if (this.root === undefined) return;
    this.root.gasUsed = end.gasUsed;
    if (this.root.error !== undefined) dropLogs(this.root);
  }

  sizeEstimate(): number {
    return this.bytes;
  }

  result(): CallFrameJson | Record<string, never> {
    return this.root === undefined ? {} : frameJson(this.root);
  }
}

function dropLogs(f: Frame): void {
  f.logs.length = 0;
  for (const c of f.calls) dropLogs(c);
}

function frameJson(f: Frame): CallFrameJson {
  const { enter } = f;
  const failedCreate = f.error !== undefined && (enter.type === 'CREATE' || enter.type === 'CREATE2');
  // Built in geth's field order (callFrame's JSON), so answers read the same.
  const out = { from: hexBytes(enter.from), gas: quantity(f.gas), gasUsed: quantity(f.gasUsed) } as CallFrameJson;
  if (enter.to !== undefined && !failedCreate) out.to = hexBytes(enter.to);
  out.input = hexBytes(enter.input);
  if (f.output !== undefined && f.output.length > 0) out.output = hexBytes(f.output);
  if (f.error !== undefined) out.error = f.error;
  if (f.revertReason !== undefined) out.revertReason = f.revertReason;
  if (f.calls.length > 0) out.calls = f.calls.map(frameJson);
  if (f.logs.length > 0) {
    out.logs = f.logs.map(({ log, position }) => ({
      address: hexBytes(log.address),
      topics: log.topics.map(hexBytes),
      data: hexBytes(log.data),
      position: quantity(position),
    }));
  }
  if (enter.value !== undefined) out.value = quantity(enter.value);
  out.type = enter.type;
  return out;
}

registerTracer({
  name: 'callTracer',
  listed: true,
  config: {
    onlyTopCall: { type: 'boolean', description: 'callTracer: the top frame only.' },
    withLog: { type: 'boolean', description: "callTracer: each frame's logs, with their position among its calls." },
  },
  create: (config) =>
    new CallTracer({ onlyTopCall: configFlag(config, 'onlyTopCall'), withLog: configFlag(config, 'withLog') }),
});

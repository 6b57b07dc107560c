/**
 * The tracer behind Otterscan's ots_* methods: callTracer's frame tree plus which addresses were called as
 * precompiles, which the tree alone cannot tell (Otterscan's call tree leaves precompile calls out, as Erigon does).
 * Not one of geth's named tracers: debug_trace* cannot ask for it.
 */
import { CallTracer, type CallFrameJson } from './call-tracer.js';
import { hexBytes } from './json.js';
import type { FrameEnter, FrameExit, Tracer, TxEnd, TxStart } from './types.js';
import { registerTracer } from './registry.js';

export interface OtsTraceJson {
  /** The transaction's own frame with its children; undefined when nothing ran. */
  readonly root: CallFrameJson | undefined;
  /** Lowercase 0x addresses the transaction called as precompiles. */
  readonly precompiles: readonly string[];
}

export class OtsTracer implements Tracer {
  private readonly calls = new CallTracer({});
  private readonly precompiles = new Set<string>();

  txStart(tx: TxStart): void {
    this.calls.txStart(tx);
  }

  enter(frame: FrameEnter): void {
    if (frame.precompile && frame.to !== undefined) this.precompiles.add(hexBytes(frame.to));
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

  result(): OtsTraceJson {
    const root = this.calls.result();
    return { root: 'type' in root ? (root as CallFrameJson) : undefined, precompiles: [...this.precompiles] };
  }
}

registerTracer({ name: 'otsTracer', listed: false, config: {}, create: () => new OtsTracer() });

/**
 * geth's `4byteTracer`: how often each function selector was called with each calldata size, keyed
 * `0x<selector>-<size of the arguments>`, over every call frame with at least 4 bytes of input (creations and
 * precompiles left out).
 */
import { bytesToHex } from '@ethereumjs/util';
import type { FrameEnter, Tracer } from './types.js';
import { registerTracer } from './registry.js';

export class FourByteTracer implements Tracer {
  private readonly ids = new Map<string, number>();

  enter(frame: FrameEnter): void {
    if (frame.input.length < 4 || frame.precompile) return;
    if (frame.type === 'CREATE' || frame.type === 'CREATE2' || frame.type === 'SELFDESTRUCT') return;
    const key = `${bytesToHex(frame.input.subarray(0, 4))}-${frame.input.length - 4}`;
    this.ids.set(key, (this.ids.get(key) ?? 0) + 1);
  }

  result(): Record<string, number> {
    return Object.fromEntries(this.ids);
  }
}

registerTracer({ name: '4byteTracer', listed: true, config: {}, create: () => new FourByteTracer() });

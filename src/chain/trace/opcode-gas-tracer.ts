/**
 * reth's opcode gas inspector behind trace_transactionOpcodeGas and trace_blockOpcodeGas: per opcode, how often it
 * ran and the gas its steps cost (geth's gasCost: a CALL's includes the gas it forwards), over every frame of the
 * transaction. The engine's own tracer: debug_trace* cannot name it.
 */
import type { StepInfo, Tracer } from './types.js';
import { registerTracer } from './registry.js';

export interface OpcodeGasJson {
  readonly opcode: string;
  readonly count: number;
  readonly gasUsed: number;
}

export class OpcodeGasTracer implements Tracer {
  /** In the order opcodes first ran. */
  private readonly ops = new Map<string, { count: number; gasUsed: bigint }>();

  step(step: StepInfo): void {
    const entry = this.ops.get(step.opName);
    if (entry === undefined) this.ops.set(step.opName, { count: 1, gasUsed: step.gasCost });
    else {
      entry.count++;
      entry.gasUsed += step.gasCost;
    }
  }

  result(): OpcodeGasJson[] {
    return [...this.ops].map(([opcode, { count, gasUsed }]) => ({ opcode, count, gasUsed: Number(gasUsed) }));
  }

  sizeEstimate(): number {
    return this.ops.size * 48;
  }
}

registerTracer({ name: 'opcodeGasTracer', listed: false, config: {}, create: () => new OpcodeGasTracer() });

/** What a comparison run produces: rows of workloads, one cell per target, each the median of several runs. */
import { loadavg } from 'node:os';
import { MethodUnavailable } from './rpc.js';
import { median } from './stats.js';
import type { TargetId } from './targets.js';

export interface Figure {
  /** Median of `runs`. */
  readonly value: number;
  readonly runs: readonly number[];
  /** Median p50/p99 latency over the runs, when the workload has them (ms). */
  readonly p50Ms?: number;
  readonly p99Ms?: number;
  /** 1-minute load average when each run ended. */
  readonly load: readonly number[];
  readonly note?: string;
}

export interface Unavailable {
  readonly unavailable: string;
}

export type Cell = Figure | Unavailable;

export const isFigure = (cell: Cell | undefined): cell is Figure => cell !== undefined && 'value' in cell;

export interface Row {
  readonly section: string;
  readonly workload: string;
  readonly unit: string;
  readonly higherIsBetter: boolean;
  readonly cells: Partial<Record<TargetId, Cell>>;
}

export interface Sample {
  readonly value: number;
  readonly p50Ms?: number;
  readonly p99Ms?: number;
}

export const currentLoad = () => loadavg()[0]!;

/** Collects the runs of one cell. */
export class CellRecorder {
  private readonly samples: Sample[] = [];
  private readonly load: number[] = [];
  add(sample: Sample): void {
    this.samples.push(sample);
    this.load.push(currentLoad());
  }
  get count(): number {
    return this.samples.length;
  }
  figure(note?: string): Figure {
    const pick = (key: 'p50Ms' | 'p99Ms') => {
      const xs = this.samples.map((s) => s[key]).filter((x): x is number => x !== undefined);
      return xs.length ? median(xs) : undefined;
    };
    return {
      value: median(this.samples.map((s) => s.value)),
      runs: this.samples.map((s) => s.value),
      p50Ms: pick('p50Ms'),
      p99Ms: pick('p99Ms'),
      load: this.load,
      note,
    };
  }
}

/** "n/a" text for a cell: methods the node does not serve, and any other failure (kept short for the table). */
export function unavailableBecause(err: unknown): Unavailable {
  if (err instanceof MethodUnavailable) return { unavailable: `not yet available (${err.method})` };
  const message = err instanceof Error ? err.message : String(err);
  return { unavailable: `failed: ${message.replace(/\s+/g, ' ').slice(0, 160)}` };
}

export class Results {
  readonly rows: Row[] = [];
  /** Free-text facts per target (how blocks were produced, funded keys, skipped phases). */
  readonly notes: Array<{ target: TargetId | 'all'; text: string }> = [];

  row(section: string, workload: string, unit: string, higherIsBetter: boolean): Row {
    let row = this.rows.find((r) => r.section === section && r.workload === workload);
    if (!row) {
      row = { section, workload, unit, higherIsBetter, cells: {} };
      this.rows.push(row);
    }
    return row;
  }

  set(section: string, workload: string, unit: string, higherIsBetter: boolean, target: TargetId, cell: Cell): void {
    this.row(section, workload, unit, higherIsBetter).cells[target] = cell;
  }

  note(target: TargetId | 'all', text: string): void {
    this.notes.push({ target, text });
  }
}

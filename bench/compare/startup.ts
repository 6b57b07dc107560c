/**
 * Cold start: spawn with an empty data directory → first eth_blockNumber answered with a result. Extra starts are
 * made one after another, alternating targets, before the long-lived instances exist (so nothing else runs).
 */
import { startTarget, type RunningTarget } from './launcher.js';
import { CellRecorder, type Results } from './results.js';
import type { Target, TargetId } from './targets.js';

export const COLD_START_SECTION = 'Start-up and memory';
export const COLD_START_LABEL = 'cold start → first eth_blockNumber';

export class ColdStarts {
  private readonly recorders = new Map<TargetId, CellRecorder>();
  private readonly fallbacks = new Map<TargetId, number[]>();

  /** Records one start (also the long-lived instance's own start). */
  record(node: RunningTarget): void {
    const id = node.target.id;
    if (node.coldStartMs === undefined) {
      this.fallbacks.set(id, [...(this.fallbacks.get(id) ?? []), node.firstAnswerMs]);
      return;
    }
    const recorder = this.recorders.get(id) ?? new CellRecorder();
    recorder.add({ value: node.coldStartMs });
    this.recorders.set(id, recorder);
  }

  async measure(
    targets: readonly Target[],
    extraStarts: number,
    workDir: string,
    log: (line: string) => void,
  ): Promise<void> {
    for (let run = 0; run < extraStarts; run++) {
      for (const target of run % 2 ? [...targets].reverse() : targets) {
        const node = await startTarget(target, workDir);
        await node.stop();
        this.record(node);
        log(
          `  cold start ${target.id}: ${(node.coldStartMs ?? node.firstAnswerMs).toFixed(0)} ms${node.coldStartMs === undefined ? ' (first answer; eth_blockNumber not served)' : ''}`,
        );
      }
    }
  }

  report(results: Results, ids: readonly TargetId[]): void {
    for (const id of ids) {
      const recorder = this.recorders.get(id);
      if (recorder) results.set(COLD_START_SECTION, COLD_START_LABEL, 'ms', false, id, recorder.figure());
      else {
        const first = this.fallbacks.get(id);
        const detail = first ? `; first JSON-RPC answer after ${Math.round(Math.min(...first))} ms` : '';
        results.set(COLD_START_SECTION, COLD_START_LABEL, 'ms', false, id, {
          unavailable: `not yet available (eth_blockNumber)${detail}`,
        });
      }
    }
  }
}

/** svc-node against one peer on one row, oriented so that > 1 always means svc-node is ahead. */
import { isFigure, type Row } from './results.js';
import type { TargetId } from './targets.js';

/** Rates: svc-node / peer. Times and memory: peer / svc-node. Undefined when either side has no figure. */
export function advantage(row: Row, peer: TargetId): number | undefined {
  const svc = row.cells['svc-node'];
  const other = row.cells[peer];
  if (!isFigure(svc) || !isFigure(other) || svc.value <= 0 || other.value <= 0) return undefined;
  return row.higherIsBetter ? svc.value / other.value : other.value / svc.value;
}

export function formatRatio(ratio: number | undefined): string {
  if (ratio === undefined) return '–';
  return `×${ratio >= 10 ? ratio.toFixed(0) : ratio >= 1 ? ratio.toFixed(2) : ratio.toFixed(3)}`;
}

/**
 * `npm run bench -- --peers --render`: rewrites latest-peers.md and .svg from latest-peers.json, so a new entry in
 * reasons.ts or a chart change needs no new 15-minute run. The figures are never touched.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { renderSvg } from './chart.js';
import { knownReasons } from './reasons.js';
import { renderMarkdown, type RunInfo } from './report.js';
import { Results, type Row } from './results.js';
import { allTargets, repoDir, type TargetId } from './targets.js';

interface Saved {
  info: Omit<RunInfo, 'startedAt' | 'finishedAt' | 'targets' | 'skipped' | 'loadAtEnd'> & {
    startedAt: string;
    finishedAt: string;
    loadAtEnd?: number[];
    targets: Array<{ id: TargetId }>;
    skipped: Array<{ id: TargetId; reason: string }>;
  };
  rows: Row[];
  notes: Results['notes'];
}

export function rerender(): void {
  const dir = `${repoDir}bench/results/`;
  const saved = JSON.parse(readFileSync(`${dir}latest-peers.json`, 'utf8')) as Saved;
  const byId = (id: TargetId) => allTargets.find((t) => t.id === id)!;
  const results = new Results();
  results.rows.push(...saved.rows);
  results.notes.push(...saved.notes);
  const info: RunInfo = {
    ...saved.info,
    loadAtEnd: saved.info.loadAtEnd ?? loadAtEndFromMarkdown(`${dir}latest-peers.md`),
    startedAt: new Date(saved.info.startedAt),
    finishedAt: new Date(saved.info.finishedAt),
    targets: saved.info.targets.map((t) => byId(t.id)),
    skipped: saved.info.skipped.map((s) => ({ target: byId(s.id), reason: s.reason })),
  };
  writeFileSync(`${dir}latest-peers.md`, renderMarkdown(results, info, knownReasons));
  writeFileSync(`${dir}latest-peers.svg`, renderSvg(results, info.targets, subtitleOf(info)));
}

export function subtitleOf(info: RunInfo): string {
  const at = info.finishedAt.toISOString().slice(0, 16).replace('T', ' ');
  return `${info.mode} run ${at} UTC, 1-min load ${info.loadAtStart[0]!.toFixed(1)} at start → ${info.loadAtEnd[0]!.toFixed(1)} at end.`;
}

/** Runs saved before loadAtEnd was in the JSON kept it only in the Markdown's machine table. */
function loadAtEndFromMarkdown(file: string): number[] {
  const match = /at end ([\d.]+) \/ ([\d.]+) \/ ([\d.]+)/.exec(readFileSync(file, 'utf8'));
  return match ? match.slice(1).map(Number) : [Number.NaN, Number.NaN, Number.NaN];
}

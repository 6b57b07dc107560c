/** The Markdown report: machine and versions, one table per section with svc-node's advantage per peer. */
import { cpus, totalmem, release } from 'node:os';
import { isFigure, type Cell, type Results, type Row } from './results.js';
import { advantage, formatRatio } from './ratios.js';
import type { Target, TargetId } from './targets.js';

export interface RunInfo {
  readonly startedAt: Date;
  readonly finishedAt: Date;
  readonly mode: 'full' | 'quick';
  readonly settings: string;
  readonly loadAtStart: readonly number[];
  readonly loadAtEnd: readonly number[];
  readonly autocannonVersion: string;
  readonly targets: readonly Target[];
  readonly skipped: ReadonlyArray<{ target: Target; reason: string }>;
}

const fmt = (x: number) => (x >= 100 ? Math.round(x).toLocaleString('en-US') : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const ms = (x: number | undefined) =>
  x === undefined || x === null ? '?' : x < 1 ? x.toFixed(2) : x < 10 ? x.toFixed(1) : Math.round(x).toString();

function cellText(cell: Cell | undefined): string {
  if (cell === undefined) return '–';
  if (!isFigure(cell)) return `n/a (${cell.unavailable.replace(/\|/g, '/')})`;
  const latency = cell.p50Ms !== undefined ? ` (${ms(cell.p50Ms)} / ${ms(cell.p99Ms)} ms)` : '';
  const note = cell.note ? ` ‹${cell.note}›` : '';
  return `${fmt(cell.value)}${latency}${note}`;
}

function loadRange(row: Row): string {
  const loads = Object.values(row.cells).flatMap((c) => (isFigure(c) ? c.load : []));
  if (loads.length === 0) return '';
  return `${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`;
}

export function behindRows(
  results: Results,
  peers: readonly TargetId[],
): Array<{ row: Row; peer: TargetId; ratio: number }> {
  return results.rows.flatMap((row) =>
    peers.flatMap((peer) => {
      const ratio = advantage(row, peer);
      return ratio !== undefined && ratio < 1 ? [{ row, peer, ratio }] : [];
    }),
  );
}

export function renderMarkdown(results: Results, info: RunInfo, reasons: ReadonlyMap<string, string>): string {
  const ids = info.targets.map((t) => t.id);
  const peers = ids.filter((id) => id !== 'svc-node');
  const name = (id: TargetId) => info.targets.find((t) => t.id === id)?.name ?? id;
  const cpu = cpus();
  const lines: string[] = [
    '# svc-node side by side with Anvil, Ganache, Hardhat and the EthereumJS client',
    '',
    `Run ${info.startedAt.toISOString()} → ${info.finishedAt.toISOString()} (${info.mode} mode: \`npm run bench -- --peers${info.mode === 'quick' ? ' --quick' : ''}\`).`,
    '',
    '| machine | |',
    '|---|---|',
    `| CPU | ${cpu.length} × ${cpu[0]?.model ?? 'unknown'} |`,
    `| memory | ${(totalmem() / 2 ** 30).toFixed(1)} GiB |`,
    `| OS / Node | Linux ${release()} / Node ${process.version} |`,
    `| load average (1/5/15 min) | at start ${info.loadAtStart.map((x) => x.toFixed(2)).join(' / ')}; at end ${info.loadAtEnd.map((x) => x.toFixed(2)).join(' / ')} |`,
    `| load generator | autocannon ${info.autocannonVersion}, in its own process; ${info.settings} |`,
    '',
    '| node | version | how it ran |',
    '|---|---|---|',
    ...info.targets.map((t) => `| ${t.name} | ${t.version} | blocks on demand: ${t.blockProduction} |`),
    ...info.skipped.map((s) => `| ${s.target.name} | ${s.target.version} | **not measured**: ${s.reason} |`),
    '',
    'Every figure is the median of the runs (warm-up discarded). **Advantage** columns say how many times better',
    'svc-node did: svc-node ÷ peer for rates, peer ÷ svc-node for times and memory, so above 1 = svc-node ahead.',
    'The machine is shared: the last column is the range of the 1-minute load average over the runs of the row.',
    'Cells read `median (p50 / p99 latency)`; ‹…› holds details; n/a says why a node has no figure.',
    '',
  ];
  const sections = [...new Set(results.rows.map((r) => r.section))];
  for (const section of sections) {
    lines.push(`## ${section}`, '');
    lines.push(
      `| workload | unit | ${ids.map(name).join(' | ')} | ${peers.map((p) => `advantage vs ${name(p)}`).join(' | ')} | load |`,
    );
    lines.push(`|---|---|${ids.map(() => '---:').join('|')}|${peers.map(() => '---:').join('|')}|---|`);
    for (const row of results.rows.filter((r) => r.section === section)) {
      const ratios = peers.map((p) => {
        const r = advantage(row, p);
        return r !== undefined && r < 1 ? `**${formatRatio(r)}**` : formatRatio(r);
      });
      lines.push(
        `| ${row.workload} | ${row.unit} | ${ids.map((id) => cellText(row.cells[id])).join(' | ')} | ${ratios.join(' | ')} | ${loadRange(row)} |`,
      );
    }
    lines.push('');
  }
  const behind = behindRows(results, peers);
  lines.push('## Where svc-node is behind', '');
  if (behind.length === 0) lines.push('No row with figures on both sides has svc-node behind.');
  for (const b of behind) {
    const reason = [...reasons].find(([prefix]) => b.row.workload.startsWith(prefix))?.[1];
    lines.push(`- ${b.row.workload} vs ${name(b.peer)}: ${formatRatio(b.ratio)}. ${reason ?? 'No profile yet.'}`);
  }
  const missing = results.rows.filter((r) => r.cells['svc-node'] !== undefined && !isFigure(r.cells['svc-node']));
  if (missing.length > 0) {
    lines.push('', '## svc-node rows without a figure', '');
    for (const row of missing) lines.push(`- ${row.workload}: ${cellText(row.cells['svc-node'])}`);
  }
  if (results.notes.length > 0) {
    lines.push('', '## Notes', '');
    for (const n of results.notes) lines.push(`- ${n.target === 'all' ? '' : `${name(n.target)}: `}${n.text}`);
  }
  lines.push('');
  return lines.join('\n');
}

/**
 * The at-a-glance chart: one line per workload, one bar per peer, drawn from the "as fast as the peer" line on a
 * log scale. Right of the line (solid) = svc-node ahead by that factor, left (hatched) = behind. Hand-written SVG.
 */
import { isFigure, type Results } from './results.js';
import { advantage, formatRatio } from './ratios.js';
import type { Target, TargetId } from './targets.js';

const peerColours: Record<Exclude<TargetId, 'svc-node'>, string> = {
  anvil: '#2a9d5c',
  ganache: '#d98c1a',
  hardhat: '#3b6fd4',
  ethereumjs: '#7a4fb3',
};

const LIMIT = 64; // the axis runs from 1/64 to 64; larger factors are clamped and marked with an arrow
const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderSvg(results: Results, targets: readonly Target[], subtitle: string): string {
  const peers = targets.map((t) => t.id).filter((id): id is Exclude<TargetId, 'svc-node'> => id !== 'svc-node');
  const labelWidth = 330;
  const plotWidth = 560;
  const ratioWidth = 70;
  const width = labelWidth + plotWidth + ratioWidth + 20;
  const barHeight = 8;
  const barGap = 2;
  const rowPad = 8;
  const rowHeight = peers.length * (barHeight + barGap) + rowPad;
  const sectionHeight = 26;
  const top = 96;
  const x0 = labelWidth;
  const xOf = (ratio: number) => {
    const clamped = Math.min(LIMIT, Math.max(1 / LIMIT, ratio));
    return x0 + ((Math.log2(clamped) + Math.log2(LIMIT)) / (2 * Math.log2(LIMIT))) * plotWidth;
  };
  const centre = xOf(1);

  const body: string[] = [];
  let y = top;
  const sections = [...new Set(results.rows.map((r) => r.section))];
  for (const section of sections) {
    body.push(`<text x="8" y="${y + 17}" class="section">${escapeXml(section)}</text>`);
    y += sectionHeight;
    for (const row of results.rows.filter((r) => r.section === section)) {
      const midY = y + (rowHeight - rowPad) / 2;
      body.push(
        `<text x="${labelWidth - 8}" y="${midY + 4}" class="label" text-anchor="end">${escapeXml(row.workload)}</text>`,
      );
      peers.forEach((peer, i) => {
        const by = y + i * (barHeight + barGap);
        const ratio = advantage(row, peer);
        if (ratio === undefined) {
          // svc-node missing: say it once for the row; a peer missing: say it on that peer's line.
          const svcMissing = !isFigure(row.cells['svc-node']);
          const why = svcMissing
            ? i === 0 && row.cells['svc-node']
              ? 'svc-node n/a (see latest-peers.md)'
              : ''
            : row.cells[peer]
              ? `${peer} n/a`
              : '';
          if (why) body.push(`<text x="${centre + 6}" y="${by + barHeight - 1}" class="na">${escapeXml(why)}</text>`);
          return;
        }
        const x = xOf(ratio);
        const [left, right] = x >= centre ? [centre, x] : [x, centre];
        const fill = ratio >= 1 ? peerColours[peer] : `url(#hatch-${peer})`;
        body.push(
          `<rect x="${left.toFixed(1)}" y="${by}" width="${Math.max(1, right - left).toFixed(1)}" height="${barHeight}" fill="${fill}" stroke="${peerColours[peer]}" stroke-width="0.6"><title>${escapeXml(`${row.workload} vs ${peer}: ${formatRatio(ratio)}`)}</title></rect>`,
        );
        if (ratio > LIMIT || ratio < 1 / LIMIT)
          body.push(`<text x="${ratio > 1 ? right + 2 : left - 10}" y="${by + barHeight - 1}" class="tick">▸</text>`);
        body.push(
          `<text x="${x0 + plotWidth + 8}" y="${by + barHeight - 0.5}" class="ratio${ratio < 1 ? ' behind' : ''}" fill="${peerColours[peer]}">${formatRatio(ratio)}</text>`,
        );
      });
      y += rowHeight;
    }
  }
  const height = y + 36;

  const ticks = [1 / 64, 1 / 16, 1 / 4, 1, 4, 16, 64];
  const grid = ticks.map((t) => {
    const x = xOf(t).toFixed(1);
    const text = t >= 1 ? `×${t}` : `×1/${1 / t}`;
    return `<line x1="${x}" y1="${top - 6}" x2="${x}" y2="${y}" class="${t === 1 ? 'even' : 'grid'}"/><text x="${x}" y="${top - 10}" class="tick" text-anchor="middle">${text}</text>`;
  });
  const legend = peers.map((peer, i) => {
    const name = targets.find((t) => t.id === peer)!.name;
    const lx = 8 + i * 190;
    return `<rect x="${lx}" y="50" width="14" height="9" fill="${peerColours[peer]}"/><text x="${lx + 20}" y="59" class="legend">vs ${escapeXml(name)}</text>`;
  });

  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif">`,
    '<style>',
    '.title{font-size:17px;font-weight:bold;fill:#222}.sub{font-size:11.5px;fill:#555}.section{font-size:13px;font-weight:bold;fill:#333}',
    '.label{font-size:11.5px;fill:#333}.tick{font-size:10px;fill:#666}.legend{font-size:12px;fill:#333}.na{font-size:9.5px;fill:#999;font-style:italic}',
    '.ratio{font-size:9.5px;font-weight:bold}.behind{text-decoration:underline}.grid{stroke:#e3e3e3;stroke-width:1}.even{stroke:#222;stroke-width:1.4}',
    '</style>',
    '<defs>',
    ...peers.map(
      (peer) =>
        `<pattern id="hatch-${peer}" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="5" height="5" fill="#fff"/><line x1="0" y1="0" x2="0" y2="5" stroke="${peerColours[peer]}" stroke-width="2.2"/></pattern>`,
    ),
    '</defs>',
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="8" y="22" class="title">How many times better svc-node does than each peer (log scale)</text>`,
    `<text x="8" y="40" class="sub">${escapeXml(`Right of the black line: svc-node ahead (solid bar); left: svc-node behind (hatched). ${subtitle}`)}</text>`,
    ...legend,
    `<text x="${centre - 6}" y="${top - 24}" class="tick" text-anchor="end">◀ peer better</text>`,
    `<text x="${centre + 6}" y="${top - 24}" class="tick">svc-node better ▶</text>`,
    ...grid,
    ...body,
    `<text x="8" y="${height - 12}" class="sub">Rates: svc-node ÷ peer; times and memory: peer ÷ svc-node. Figures and n/a reasons: latest-peers.md.</text>`,
    '</svg>',
    '',
  ].join('\n');
}

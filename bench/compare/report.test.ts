/**
 * The pure parts of the peer comparison: statistics, the orientation of advantages, and what the report and chart
 * say about a row where svc-node is behind. Run with `npx vitest run --root bench/compare`.
 */
import { describe, expect, it } from 'vitest';
import { renderSvg } from './chart.js';
import { advantage, formatRatio } from './ratios.js';
import { behindRows, renderMarkdown, type RunInfo } from './report.js';
import { Results } from './results.js';
import { median, percentile } from './stats.js';
import { ganache, hardhat, svcNode } from './targets.js';

const figure = (value: number) => ({ value, runs: [value], load: [1] });

function sampleResults(): Results {
  const results = new Results();
  results.set('Reads', 'eth_chainId ×1', 'req/s', true, 'svc-node', figure(8000));
  results.set('Reads', 'eth_chainId ×1', 'req/s', true, 'ganache', figure(16000));
  results.set('Reads', 'eth_chainId ×1', 'req/s', true, 'hardhat', figure(2000));
  results.set('Start-up and memory', 'cold start', 'ms', false, 'svc-node', figure(500));
  results.set('Start-up and memory', 'cold start', 'ms', false, 'ganache', figure(2000));
  results.set('Start-up and memory', 'cold start', 'ms', false, 'hardhat', { unavailable: 'not yet available (x)' });
  return results;
}

describe('stats', () => {
  it('takes medians of odd and even counts and nearest-rank percentiles', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 0.5)).toBe(50);
    expect(percentile(sorted, 0.99)).toBe(99);
  });
});

describe('advantage', () => {
  it('is above 1 when svc-node is ahead, for rates and for times alike', () => {
    const [reads, start] = sampleResults().rows;
    expect(advantage(reads!, 'ganache')).toBe(0.5);
    expect(advantage(reads!, 'hardhat')).toBe(4);
    expect(advantage(start!, 'ganache')).toBe(4);
    expect(advantage(start!, 'hardhat')).toBeUndefined();
    expect(formatRatio(0.5)).toBe('×0.500');
    expect(formatRatio(12.3)).toBe('×12');
  });
});

describe('report and chart', () => {
  const info: RunInfo = {
    startedAt: new Date(0),
    finishedAt: new Date(1000),
    mode: 'quick',
    settings: 'test',
    loadAtStart: [1, 1, 1],
    loadAtEnd: [1, 1, 1],
    autocannonVersion: '9.0.0',
    targets: [svcNode, ganache, hardhat],
    skipped: [],
  };

  it('lists exactly the rows where svc-node is behind, with n/a reasons kept', () => {
    const results = sampleResults();
    expect(behindRows(results, ['ganache', 'hardhat']).map((b) => `${b.row.workload}/${b.peer}`)).toEqual([
      'eth_chainId ×1/ganache',
    ]);
    const md = renderMarkdown(results, info, new Map([['eth_chainId', 'transport ceiling']]));
    expect(md).toContain('- eth_chainId ×1 vs Ganache: ×0.500. transport ceiling');
    expect(md).toContain('n/a (not yet available (x))');
  });

  it('draws behind bars hatched and ahead bars solid, one per peer with a figure', () => {
    const svg = renderSvg(sampleResults(), info.targets, 'test');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    const bars = [...svg.matchAll(/<rect x="[\d.]+" y="\d+" width="[\d.]+" height="8" fill="([^"]+)"/g)].map(
      (m) => m[1],
    );
    expect(bars).toEqual(['url(#hatch-ganache)', '#3b6fd4', '#d98c1a']);
    expect(svg).toContain('hardhat n/a');
  });
});

/**
 * README.md stays an entry page (at most 250 lines: what the node is, how to set it up, a tour, links), and every
 * link in it and in the guides leads somewhere: a file or folder of the repository, a guide, and a heading of that
 * guide when the link names one. The portal renders guide links to its pages, so a link that resolves here resolves
 * there too. Links out of the repository (http, https) are not fetched.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GUIDES } from '../../codegen/docs/guides.js';
import { repoRoot } from '../helpers/node-process.js';

const GUIDE_DIR = join(repoRoot, 'codegen/docs/guides');
const pages = ['README.md', ...GUIDES.map((g) => relative(repoRoot, join(GUIDE_DIR, `${g.slug}.md`)))];

/** Markdown outside fenced code. */
const prose = (markdown: string): string => markdown.replace(/^```[^\n]*\n[\s\S]*?^```\s*$/gm, '');

function links(markdown: string): string[] {
  return [...prose(markdown).matchAll(/(?<!!)\[(?:[^\]]|\][^(])*?\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

/** GitHub's heading anchors, as the portal writes them too (codegen/docs/guides.ts). */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const m of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    out.add(
      m[1]!
        .toLowerCase()
        .replace(/<[^>]*>/g, '')
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .trim()
        .replace(/\s/g, '-'),
    );
  }
  return out;
}

describe('README and guide links', () => {
  it('README.md is at most 250 lines', () => {
    const lines = readFileSync(join(repoRoot, 'README.md'), 'utf8').trimEnd().split('\n').length;
    expect(lines).toBeLessThanOrEqual(250);
  });

  it('README.md links every guide', () => {
    const readme = links(readFileSync(join(repoRoot, 'README.md'), 'utf8'));
    for (const g of GUIDES) expect(readme, g.slug).toContain(`codegen/docs/guides/${g.slug}.md`);
  });

  it.each(pages)('every link of %s resolves', (page) => {
    const file = join(repoRoot, page);
    const broken: string[] = [];
    for (const href of links(readFileSync(file, 'utf8'))) {
      if (/^(https?:|mailto:)/.test(href)) continue;
      const [path = '', hash] = href.split('#');
      // ../index.html and the like are portal pages, generated next to the rendered guides.
      if (page !== 'README.md' && path.startsWith('../') && path.endsWith('.html')) continue;
      const target = path === '' ? file : join(dirname(file), path);
      if (!existsSync(target)) {
        broken.push(`${href} (no ${relative(repoRoot, target)})`);
        continue;
      }
      if (hash !== undefined && target.endsWith('.md') && !anchors(readFileSync(target, 'utf8')).has(hash)) {
        broken.push(`${href} (no heading #${hash} in ${relative(repoRoot, target)})`);
      }
    }
    expect(broken).toEqual([]);
  });
});

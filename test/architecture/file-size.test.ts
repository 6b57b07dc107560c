/** Small modules: no hand-written file of src/ over 500 lines, and the two that grew the most stay within their caps. */
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/node-process.js';
import { readSourceTree } from './layers.js';

const CAPS: Readonly<Record<string, number>> = {
  'src/chain/blockchain/blockchain.ts': 450,
  'src/chain/miner/miner.ts': 300,
};

describe('file sizes', () => {
  it('keeps hand-written sources small', () => {
    const over = readSourceTree(repoRoot)
      .filter((f) => !f.path.startsWith('src/generated/'))
      .map((f) => ({ path: f.path, lines: f.text.split('\n').length - (f.text.endsWith('\n') ? 1 : 0) }))
      .filter((f) => f.lines > (CAPS[f.path] ?? 500))
      .map((f) => `${f.path}: ${f.lines} lines (cap ${CAPS[f.path] ?? 500})`);
    expect(over).toEqual([]);
  });
});

/** No engine state in handler modules, and one home for the fork fallback (rules in handler-state.ts). */
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/node-process.js';
import { forkFallbackSites, moduleLevelState, modulesOf } from './handler-state.js';
import { readSourceTree } from './layers.js';

const READ_VIEW = 'src/handlers/fork-history.ts';

describe('handler state', () => {
  const files = readSourceTree(repoRoot);

  it('src/handlers holds no module-level Map, WeakMap, Set, WeakSet, Lru or let', () => {
    expect(moduleLevelState(files).map((f) => `${f.file}:${f.line} ${f.text}`)).toEqual([]);
  });

  it('the fork fallback is called from the read view only', () => {
    expect(modulesOf(forkFallbackSites(files))).toEqual([READ_VIEW]);
  });

  it('catches module-level caches, static ones and lets, not those made per call', () => {
    const found = moduleLevelState([
      { path: 'src/handlers/a.ts', text: 'const books = new WeakMap<object, number>();' },
      { path: 'src/handlers/b.ts', text: 'export const seen = { ids: new Set<string>() };' },
      { path: 'src/handlers/c.ts', text: 'let slots: Map<string, Uint8Array> | undefined;' },
      { path: 'src/handlers/d.ts', text: 'class K { static readonly kept = new Lru(10); }' },
      {
        path: 'src/handlers/ok.ts',
        text: 'export function f() { const m = new Map(); return m; }\nconst g = () => new Set();',
      },
      { path: 'src/handlers/x.test.ts', text: 'const m = new Map();' },
      { path: 'src/chain/ok.ts', text: 'const m = new Map();' },
    ]);
    expect(found.map((f) => f.file)).toEqual([
      'src/handlers/a.ts',
      'src/handlers/b.ts',
      'src/handlers/c.ts',
      'src/handlers/d.ts',
    ]);
  });

  it('finds fork-fallback calls and fork-base reads outside the read view', () => {
    const sites = forkFallbackSites([
      { path: READ_VIEW, text: 'const base = engine.chain.forkBase; upstreamHistory(ctx, m, p, h);' },
      { path: 'src/handlers/eth/a.ts', text: 'const h = await fromForkHistory(ctx, ref, m, p);' },
      { path: 'src/handlers/ots/b.ts', text: 'if (engine.chain.forkBase !== undefined) throw e;' },
    ]);
    expect(modulesOf(sites)).toEqual(['src/handlers/eth/a.ts', READ_VIEW, 'src/handlers/ots/b.ts']);
  });
});

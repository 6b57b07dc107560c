/**
 * Figures of src/chain/'s inner structure (issue 38): its parts (folders, and "(top)" for files at its top), the
 * imports between parts, the ones that run up ARCHITECTURE.md's table of inner layers ("(top)" counts as above
 * every layer), two-part cycles, the largest strongly connected set of parts, two-file cycles, and the modules of
 * chain/ imported from the rest of src/ (and by handlers).
 *
 *   node scripts/chain-graph.mjs [tree-root] [ARCHITECTURE.md]
 *
 * Unit tests (`*.test.ts`) are left out, as the layer test leaves them out of the inner table.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? '.');
const md = readFileSync(process.argv[3] ?? join(root, 'ARCHITECTURE.md'), 'utf8');
const layer = new Map();
for (const line of md.slice(md.indexOf('### Inner layers of the engine')).split('\n').slice(1)) {
  if (/^#{1,3} /.test(line)) break;
  const row = /^\|\s*(\d+)\s*\|([^|]*)\|/.exec(line);
  if (row) for (const [, f] of row[2].matchAll(/`([a-z0-9-]+)\/`/g)) layer.set(f, Number(row[1]));
}
const walk = (d) =>
  readdirSync(d).flatMap((f) => {
    const p = join(d, f);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
const files = walk(join(root, 'src'));
const re =
  /(?:import|export)[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|import\s+['"](\.[^'"]+)['"]/g;
const chainDir = join(root, 'src/chain');
const part = (f) => {
  const r = relative(chainDir, f);
  if (r.startsWith('..')) return null;
  const s = r.split('/');
  return s.length === 1 ? '(top)' : s[0];
};
const edges = new Map();
const fileEdges = new Map();
const outside = new Set();
const byHandlers = new Set();
for (const f of files) {
  const text = readFileSync(f, 'utf8');
  for (const m of text.matchAll(re)) {
    const target = resolve(dirname(f), m[1] || m[2] || m[3]).replace(/\.js$/, '.ts');
    const pt = part(target);
    const pf = part(f);
    if (pt && !pf) {
      outside.add(relative(root, target));
      if (f.includes('/src/handlers/')) byHandlers.add(relative(root, target));
    }
    if (pt && pf) {
      if (!fileEdges.has(f)) fileEdges.set(f, new Set());
      fileEdges.get(f).add(target);
      if (pt !== pf) edges.set(`${pf} -> ${pt}`, (edges.get(`${pf} -> ${pt}`) ?? 0) + 1);
    }
  }
}
const parts = new Set(files.map(part).filter(Boolean));
const rank = (p) => (p === '(top)' ? Number.POSITIVE_INFINITY : (layer.get(p) ?? Number.NaN));
const up = [...edges.keys()].filter((k) => {
  const [a, b] = k.split(' -> ');
  return !(rank(b) < rank(a));
});
const g = new Map();
for (const k of edges.keys()) {
  const [a, b] = k.split(' -> ');
  if (!g.has(a)) g.set(a, new Set());
  g.get(a).add(b);
}
const two = [];
for (const [a, bs] of g) for (const b of bs) if (a < b && g.get(b)?.has(a)) two.push(`${a}<->${b}`);
let idx = 0;
const st = [];
const on = new Set();
const ix = new Map();
const low = new Map();
const sccs = [];
const sc = (v) => {
  ix.set(v, idx);
  low.set(v, idx++);
  st.push(v);
  on.add(v);
  for (const w of g.get(v) ?? []) {
    if (!ix.has(w)) {
      sc(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (on.has(w)) low.set(v, Math.min(low.get(v), ix.get(w)));
  }
  if (low.get(v) === ix.get(v)) {
    const c = [];
    let w;
    do {
      w = st.pop();
      on.delete(w);
      c.push(w);
    } while (w !== v);
    sccs.push(c);
  }
};
for (const v of parts) if (!ix.has(v)) sc(v);
const twoFiles = [];
for (const [a, bs] of fileEdges)
  for (const b of bs)
    if (a < b && fileEdges.get(b)?.has(a)) twoFiles.push(`${relative(chainDir, a)}<->${relative(chainDir, b)}`);
const unplaced = [...parts].filter((p) => p !== '(top)' && !layer.has(p));
const out = (label, value) => process.stdout.write(`${label}: ${value}\n`);
out(
  'parts (folders + "(top)" if files sit at the top)',
  `${parts.size} (top-level files: ${files.filter((f) => part(f) === '(top)').length})`,
);
const folderEdges = [...edges.keys()].filter((k) => !k.includes('(top)')).length;
out(
  'part-to-part import edges',
  `${edges.size} (between folders: ${folderEdges}, from or to "(top)": ${edges.size - folderEdges})`,
);
out(
  "edges running up ARCHITECTURE.md's table (or into top-level files)",
  `${up.length}${unplaced.length ? ` (parts in no row: ${unplaced.join(' ')})` : ''}`,
);
out('two-part cycles', `${two.length} ${two.join(', ')}`);
out('largest strongly connected set of parts', Math.max(...sccs.map((c) => c.length)));
out('two-file cycles', `${twoFiles.length} ${twoFiles.join(', ')}`);
out('chain modules imported from outside chain/', `${outside.size}, by handlers ${byHandlers.size}`);

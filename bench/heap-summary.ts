/**
 * `node --max-old-space-size=4096 --import tsx bench/heap-summary.ts <file.heapsnapshot> [top=25]`: what a V8 heap
 * snapshot holds, as self bytes per node type and per constructor name (a diagnostic for bench/snap-sync.ts
 * `--heap-snapshot`). Self sizes only: the objects themselves, not what they keep alive.
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: heap-summary.ts <file.heapsnapshot> [top]');
const top = Number(topArg ?? 25);
const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
const fields = snap.snapshot.meta.node_fields;
const width = fields.length;
const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [
  number,
  number,
  number,
];
const types = snap.snapshot.meta.node_types[0];
const byType = new Map<string, number>();
const byName = new Map<string, { bytes: number; count: number }>();
let total = 0;
for (let i = 0; i < snap.nodes.length; i += width) {
  const type = types[snap.nodes[i + typeAt]!]!;
  const size = snap.nodes[i + sizeAt]!;
  total += size;
  byType.set(type, (byType.get(type) ?? 0) + size);
  // Strings and code are grouped by type: their names are their contents.
  const name =
    type === 'object' || type === 'closure' || type === 'native' ? snap.strings[snap.nodes[i + nameAt]!]! : `(${type})`;
  const entry = byName.get(name) ?? { bytes: 0, count: 0 };
  entry.bytes += size;
  entry.count++;
  byName.set(name, entry);
}
const mib = (n: number) => (n / 1024 / 1024).toFixed(1).padStart(8);
console.log(`${file}: ${mib(total)} MiB in ${snap.nodes.length / width} objects\n\nby node type`);
for (const [t, n] of [...byType].sort((a, b) => b[1] - a[1])) console.log(`${mib(n)} MiB  ${t}`);
console.log('\nby constructor');
for (const [k, v] of [...byName].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top))
  console.log(`${mib(v.bytes)} MiB ${String(v.count).padStart(9)}  ${k.slice(0, 100)}`);

/**
 * `npx tsx bench/profile-summary.ts <file.cpuprofile | dir> [top=30] [filter]`: where a V8 CPU profile spends its
 * time, as self and inclusive milliseconds per function and self milliseconds per file (a diagnostic for the
 * transfer benches' `PROFILE=<dir>` runs). Inclusive time counts a function once per sample however deeply it
 * recurses. `filter` (a substring) keeps only the functions whose name or file contains it. FOCUS=<function name>
 * also prints the inclusive time of that function's direct callees (summed over every place it is called from).
 * TREE=<ms> prints the call tree top-down instead, same-named children merged, down to branches of that many ms.
 * WINDOW=<from>:<to> (seconds since the profile started) keeps only the samples of that stretch, e.g. a node's
 * first 30 s (its warm-up) apart from its steady work.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [target, topArg, filter] = process.argv.slice(2);
if (!target) throw new Error('usage: profile-summary.ts <file.cpuprofile | dir> [top] [filter]');
const top = Number(topArg ?? 30);
const [windowFrom, windowTo] = (process.env.WINDOW ?? '0:Infinity').split(':').map((x) => Number(x) * 1000);
const files = statSync(target).isDirectory()
  ? readdirSync(target)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => join(target, f))
  : [target];

const shortFile = (url: string) => url.replace(/^file:\/\//, '').replace(/^.*node_modules\//, '~/');
const label = (n: ProfileNode) =>
  `${n.callFrame.functionName || '(anonymous)'} ${shortFile(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

for (const file of files) {
  const profile = inWindow(JSON.parse(readFileSync(file, 'utf8')) as Profile);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  const fileSelf = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    total += dt;
    const leaf = byId.get(id)!;
    self.set(label(leaf), (self.get(label(leaf)) ?? 0) + dt);
    const f = shortFile(leaf.callFrame.url) || leaf.callFrame.functionName;
    fileSelf.set(f, (fileSelf.get(f) ?? 0) + dt);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const l = label(byId.get(cur)!);
      if (seen.has(l)) continue;
      seen.add(l);
      incl.set(l, (incl.get(l) ?? 0) + dt);
    }
  });
  const focus = process.env.FOCUS;
  const callees = new Map<string, number>();
  if (focus !== undefined) {
    // Inclusive time per node, then summed per callee label under every node of the focused function.
    const nodeTime = timePerNode(profile);
    const inclusive = (n: ProfileNode): number =>
      (nodeTime.get(n.id) ?? 0) + (n.children ?? []).reduce((s, c) => s + inclusive(byId.get(c)!), 0);
    for (const n of profile.nodes) {
      if (n.callFrame.functionName !== focus) continue;
      callees.set('(self)', (callees.get('(self)') ?? 0) + (nodeTime.get(n.id) ?? 0));
      for (const c of n.children ?? []) {
        const child = byId.get(c)!;
        callees.set(label(child), (callees.get(label(child)) ?? 0) + inclusive(child));
      }
    }
  }
  const treeMs = process.env.TREE === undefined ? undefined : Number(process.env.TREE);
  if (treeMs !== undefined) {
    printTree(profile, byId, label, treeMs);
    continue;
  }
  const keep = (k: string) => !filter || k.includes(filter);
  const print = (title: string, m: Map<string, number>) => {
    console.log(`\n${title}`);
    for (const [k, v] of [...m]
      .filter(([k]) => keep(k))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top))
      console.log(`${v.toFixed(0).padStart(8)} ms ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`);
  };
  console.log(`== ${file}: ${total.toFixed(0)} ms sampled`);
  print('self time per function', self);
  print('inclusive time per function', incl);
  print('self time per file', fileSelf);
  if (focus !== undefined) print(`callees of ${focus}`, callees);
}

/** The call tree from the root, children with the same label merged, branches under `minMs` left out. */
function printTree(
  profile: Profile,
  byId: Map<number, ProfileNode>,
  label: (n: ProfileNode) => string,
  minMs: number,
): void {
  const nodeTime = timePerNode(profile);
  interface Merged {
    self: number;
    total: number;
    children: Map<string, Merged>;
  }
  const merge = (into: Merged, n: ProfileNode): number => {
    const self = nodeTime.get(n.id) ?? 0;
    into.self += self;
    let total = self;
    for (const c of n.children ?? []) {
      const child = byId.get(c)!;
      const key = label(child);
      let m = into.children.get(key);
      if (m === undefined) into.children.set(key, (m = { self: 0, total: 0, children: new Map() }));
      total += merge(m, child);
    }
    into.total += total;
    return total;
  };
  const root: Merged = { self: 0, total: 0, children: new Map() };
  merge(root, profile.nodes[0]!);
  const walk = (m: Merged, name: string, depth: number) => {
    console.log(`${m.total.toFixed(0).padStart(7)} ${m.self.toFixed(0).padStart(6)}  ${'  '.repeat(depth)}${name}`);
    for (const [k, c] of [...m.children].sort((a, b) => b[1].total - a[1].total))
      if (c.total >= minMs) walk(c, k, depth + 1);
  };
  console.log('  total   self  (ms)');
  walk(root, '(root)', 0);
}

/** The profile with only the samples taken within WINDOW (the deltas of the others are dropped with them). */
function inWindow(profile: Profile): Profile {
  if (windowFrom === 0 && windowTo === Number.POSITIVE_INFINITY) return profile;
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let at = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    at += dt / 1000;
    if (at < windowFrom! || at > windowTo!) return;
    samples.push(id);
    timeDeltas.push(dt);
  });
  return { ...profile, samples, timeDeltas };
}

/** Sampled milliseconds per profile node (its own time, not its callees'). */
function timePerNode(profile: Profile): Map<number, number> {
  const nodeTime = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    nodeTime.set(id, (nodeTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  return nodeTime;
}

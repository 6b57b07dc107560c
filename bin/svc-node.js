#!/usr/bin/env node
// The `svc-node` command (`npm start` execs it). One process, which is the node itself and holds its database, running
// compiled JavaScript from dist/: sources edited since the last compile are compiled first (bin/build.js, milliseconds
// per file), and started from its bundle (bin/bundle.js), rebuilt when dist/ or node_modules changed. Only where that
// cannot happen (an installed package without TypeScript and without a dist/ matching its sources) are the
// TypeScript sources run through tsx, in this same process.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/main.js', import.meta.url);
let compiled = false;
try {
  const { build } = await import('./build.js');
  build();
  compiled = existsSync(entry);
} catch (err) {
  const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
  process.stderr.write(`svc-node: cannot compile src/ into dist/ (${why}); running the TypeScript sources through tsx\n`);
}
if (compiled) {
  // One bundle of dist/ loads much faster than its ~600 modules one by one (bin/bundle.js); dist/ as it is when
  // esbuild is missing or the bundle cannot be built.
  let bundleEntry;
  try {
    const { bundle } = await import('./bundle.js');
    bundleEntry = await bundle();
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    process.stderr.write(`svc-node: cannot bundle dist/ (${why}); starting from dist/\n`);
  }
  await import(bundleEntry ?? entry.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/main.ts', import.meta.url).href);
}

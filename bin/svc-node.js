#!/usr/bin/env node
// The `svc-node` command (`npm start` execs it). One process, which is the node itself and holds its database, running
// compiled JavaScript from dist/, started from its bundle (bin/bundle.js).
//
// - In a git checkout, `npm run codegen` runs first when the spec's parts changed (bin/codegen-stamp.js), and
//   sources edited since the last compile are compiled first (bin/build.js, milliseconds per file;
//   staleness is a content hash, never mtimes) and the bundle is rebuilt when dist/ or node_modules changed.
// - An installed package (from a tarball, the registry or git: no .git) runs the dist/ and bundle it ships as they
//   are. It never compiles: its files' mtimes are extraction times, and the TypeScript it would find is its user's.
// Only where there is no dist/ to run (or a checkout's sources changed and it has no TypeScript) are the TypeScript
// sources run through tsx, in this same process.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/main.js', import.meta.url);
const shippedBundle = new URL('../dist/bundle/main.js', import.meta.url);
const say = (text) => process.stderr.write(`svc-node: ${text}\n`);
const firstLine = (err) => (err instanceof Error ? err.message.split('\n')[0] : String(err));

let start;
const { build, codegenIfStale, isCheckout } = await import('./build.js');
if (isCheckout()) {
  let compiled = false;
  try {
    codegenIfStale(); // the spec's parts (openrpc/) changed: src/generated/ and the docs follow
    build();
    compiled = existsSync(entry);
  } catch (err) {
    say(`cannot compile src/ into dist/ (${firstLine(err)}); running the TypeScript sources through tsx`);
  }
  if (compiled) {
    // One bundle of dist/ loads much faster than its ~600 modules one by one (bin/bundle.js); dist/ as it is when
    // esbuild is missing or the bundle cannot be built.
    try {
      const { bundle } = await import('./bundle.js');
      start = (await bundle()) ?? entry.href;
    } catch (err) {
      say(`cannot bundle dist/ (${firstLine(err)}); starting from dist/`);
      start = entry.href;
    }
  }
} else if (existsSync(shippedBundle)) start = shippedBundle.href;
else if (existsSync(entry)) start = entry.href;
else say('this package has no dist/ to run; running the TypeScript sources through tsx');

if (start) await import(start);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/main.ts', import.meta.url).href);
}

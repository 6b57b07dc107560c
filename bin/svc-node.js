#!/usr/bin/env node
// The `svc-node` command. Runs the built JavaScript when `npm run build` has made it, otherwise the TypeScript
// sources through tsx (a dependency), so `npx svc-node` works from a fresh clone.
import { existsSync } from 'node:fs';

const built = new URL('../dist/main.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/main.ts', import.meta.url).href);
}

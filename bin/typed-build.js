#!/usr/bin/env node
// `npm run build`: TypeScript's native compiler over src/ with type checking, which also writes the node's
// declarations into dist/ (packing runs it after bin/build.js). Source maps as bin/build.js writes them, only when
// asked (SVC_NODE_SOURCE_MAPS=1): its JavaScript then stays byte for byte what bin/build.js wrote, map comment included.
import { spawnSync } from 'node:child_process';
import { sourceMapsWanted } from './fs-util.js';

const run = spawnSync('tsgo', ['-p', 'tsconfig.build.json', '--sourceMap', String(sourceMapsWanted())], {
  stdio: 'inherit',
});
if (run.error) throw run.error;
process.exit(run.status ?? 1);

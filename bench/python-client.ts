/**
 * `tsx bench/python-client.ts [seconds]`: starts a dev node and prints requests/s of eth_blockNumber from the Python
 * client (one thread, keep-alive) against raw http.client doing the same, and the client over WebSocket
 * (clients/python/bench/block_number.py).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot, startNode } from '../test/helpers/node-process.js';

const seconds = process.argv[2] ?? '3';
const node = await startNode();
try {
  const run = spawnSync('python3', [path.join(repoRoot, 'clients/python/bench/block_number.py'), node.url, seconds], {
    encoding: 'utf8',
  });
  process.stdout.write(run.stdout + run.stderr);
  if (run.status !== 0) process.exitCode = 1;
} finally {
  await node.stop();
}

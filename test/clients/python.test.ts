/**
 * The generated Python client (clients/python/) against a live dev node: balances, a sent transaction and its
 * receipt, logs, a trace, an error with its code and batches (clients/python/tests/live.py); WebSocket subscriptions,
 * sync and asyncio (tests/live_ws.py; the node pings every second so the client must answer); the WebSocket framing
 * alone (tests/frames.py). With the machine's python3, skipped, saying so, when there is none.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeProcess, repoRoot, startNode } from '../helpers/node-process.js';

const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const hasPython = python.status === 0 && /Python 3\.(1[0-9]|[2-9][0-9])/.test(python.stdout + python.stderr);
if (!hasPython) console.warn('python client tests skipped: no python3 ≥ 3.10 on PATH');

function runPython(script: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [path.join(repoRoot, script), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PYTHONPATH: path.join(repoRoot, 'clients/python') },
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe.runIf(hasPython)('the Python client against a dev node', () => {
  let node: NodeProcess;
  beforeAll(async () => {
    node = await startNode({ env: { SVC_NODE_NETWORK_RPC_WS_PING_INTERVAL: '1s' } });
  });
  afterAll(async () => {
    await node?.stop();
  });

  it('reads balances, sends and gets the receipt, logs, a trace, an error code and a batch', async () => {
    const { code, out } = await runPython('clients/python/tests/live.py', [node.url]);
    expect(out).toMatch(/^async \d+ \d+$/m); // the asyncio client: gathered calls, an error code, a batch
    expect(out).toMatch(/^typed batch 3$/m);
    expect(out).toMatch(/^ok$/m);
    expect(out).toMatch(/^error -32001 /m);
    expect(code, out).toBe(0);
  });

  it('subscribes over WebSocket (newHeads, logs, pending), sees a transaction arrive typed, and unsubscribes', async () => {
    const { code, out } = await runPython('clients/python/tests/live_ws.py', [node.url]);
    expect(out).toMatch(/^sync head \d+ log 0$/m);
    expect(out).toMatch(/^async head \d+ pings [1-9]\d*$/m);
    expect(out).toMatch(/^ws ok$/m);
    expect(code, out).toBe(0);
  });

  it('runs the type-checked example tour (eth_, trace_, ots_) to its end', async () => {
    const { code, out } = await runPython('clients/python/examples/tour.py', [node.url]);
    expect(out).toMatch(/^ots api level \d+$/m);
    expect(out).toMatch(/^error -32001 /m);
    expect(code, out).toBe(0);
  });
});

describe.runIf(hasPython)("the Python client's WebSocket framing", () => {
  it('joins fragments around a ping, reads long frames, refuses protocol errors and checks the accept hash', async () => {
    const { code, out } = await runPython('clients/python/tests/frames.py', []);
    expect(out).toMatch(/^frames ok$/m);
    expect(code, out).toBe(0);
  });
});

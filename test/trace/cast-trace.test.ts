/**
 * Foundry's cast against debug_trace* as a new user runs it: `cast rpc debug_traceTransaction` with the default
 * struct logger and with callTracer, and `cast run`, which replays the transaction itself from the node's state.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeProcess, repoRoot, startNode } from '../helpers/node-process.js';
import { deployCode, storeRuntime } from './evm-asm.js';
import { contractAt, sendScenario } from './scenario.js';

const run = promisify(execFile);
const cast = (args: string[]) =>
  run(join(repoRoot, 'node_modules/.bin/cast'), args, { timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });

let node: NodeProcess;
let hash: string;

beforeAll(async () => {
  node = await startNode({ args: ['--no-p2p'] });
  [, hash] = await sendScenario(node.url, [
    { name: 'deploy store', data: deployCode(storeRuntime), gas: 300_000 },
    { name: 'store 9', to: contractAt(0), data: `0x${'0'.repeat(63)}9`, gas: 100_000 },
  ]);
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

describe('cast with debug_traceTransaction', () => {
  it('cast rpc debug_traceTransaction answers the struct logger and callTracer', async () => {
    const plain = await cast(['rpc', '--rpc-url', node.url, 'debug_traceTransaction', hash]);
    const logs = JSON.parse(plain.stdout);
    expect(logs.failed).toBe(false);
    expect(logs.structLogs.map((e: { op: string }) => e.op)).toContain('SSTORE');
    const calls = await cast([
      'rpc',
      '--rpc-url',
      node.url,
      'debug_traceTransaction',
      JSON.stringify([hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }]),
      '--raw',
    ]);
    const frame = JSON.parse(calls.stdout);
    expect(frame).toMatchObject({ type: 'CALL', to: contractAt(0), gasUsed: expect.any(String) });
    expect(frame.logs).toHaveLength(1);
  });

  it('cast run replays the transaction', async () => {
    const replay = await cast(['run', '--rpc-url', node.url, hash]);
    const receipt = await fetch(node.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionReceipt', params: [hash] }),
    }).then((r) => r.json() as Promise<{ result: { gasUsed: string } }>);
    expect(replay.stdout.toLowerCase()).toContain(contractAt(0));
    expect(replay.stdout).toContain('Transaction successfully executed.');
    expect(replay.stdout).toContain(`Gas used: ${BigInt(receipt.result.gasUsed)}`);
  });
});

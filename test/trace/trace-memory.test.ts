/**
 * What traces cost the process, and how every tracing method answers the same limit.
 *
 * - A contract that grows its memory and loops, traced by the struct logger with `enableMemory` under the default
 *   network.rpc.debug.max-trace-bytes (128 MiB): the answer is the documented limit error (-32602 naming the
 *   setting) and the node's peak resident memory (the kernel's VmHWM) stays well under half a GiB above idle (it was
 *   ~1.7 GiB: each memory row was a 32-piece string rope of ~875 bytes, counted as 68).
 * - Six such traces at once against one slot and a queue of two: the surplus is answered -32005 with
 *   `data.backoffSeconds`, the rest run to the limit, and eth_chainId is answered meanwhile.
 * - Every tracing method that passes the memory cap answers -32602 naming it (the block replays answered -32000,
 *   "transaction 0 cannot be replayed", because the block runner reported the cap as a transaction that does not
 *   apply).
 * Figures (peak RSS, eth_chainId latency) are in bench/trace-memory.ts, not here.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeProcess, startNode } from '../helpers/node-process.js';
import { call, post, request } from '../helpers/rpc.js';
import { callLoopRuntime, deployCode, memoryGrowRuntime } from './evm-asm.js';
import { ACCOUNT0, contractAt, sendScenario } from './scenario.js';

const MiB = 2 ** 20;
const GAS = `0x${(30_000_000).toString(16)}`;

function kib(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

interface RpcErrorBody {
  readonly code: number;
  readonly message: string;
  readonly data?: { readonly backoffSeconds?: number };
}

async function refusal(url: string, method: string, params: unknown[]): Promise<RpcErrorBody> {
  const { body } = await post(url, request(method, params));
  if (body?.error === undefined) throw new Error(`${method} answered instead of refusing: ${JSON.stringify(body)}`);
  return body.error as RpcErrorBody;
}

describe('a struct-logger trace with enableMemory', () => {
  let node: NodeProcess;
  let idleRss = 0;
  const grow = { from: ACCOUNT0, to: contractAt(0), gas: GAS };

  beforeAll(async () => {
    // One trace at a time and two waiting: six requests at once leave three with no place.
    node = await startNode({
      args: ['--no-p2p'],
      env: {
        SVC_NODE_NETWORK_RPC_DEBUG_MAX_CONCURRENT_TRACES: '1',
        SVC_NODE_NETWORK_RPC_DEBUG_TRACE_QUEUE: '2',
        SVC_NODE_NETWORK_RPC_DEBUG_TRACE_TIMEOUT: '60s',
      },
    });
    await sendScenario(node.url, [{ name: 'deploy grow', data: deployCode(memoryGrowRuntime), gas: 200_000 }]);
    idleRss = kib(node.child.pid!, 'VmRSS');
  }, 60_000);

  afterAll(async () => {
    await node?.stop();
  });

  it('is stopped at network.rpc.debug.max-trace-bytes with the memory it really takes', async () => {
    const err = await refusal(node.url, 'debug_traceCall', [grow, 'latest', { enableMemory: true }]);
    expect(err.code).toBe(-32602);
    expect(err.message).toContain('network.rpc.debug.max-trace-bytes');
    const peakOverIdle = kib(node.child.pid!, 'VmHWM') - idleRss;
    expect(peakOverIdle / MiB).toBeLessThan(512);
  }, 120_000);

  it('runs six at once in its slots: the surplus gets -32005 with a backoff, eth_chainId keeps answering', async () => {
    let running = true;
    const traces = Promise.all(
      Array.from({ length: 6 }, () => refusal(node.url, 'debug_traceCall', [grow, 'latest', { enableMemory: true }])),
    ).finally(() => {
      running = false;
    });
    let answered = 0;
    while (running) {
      expect(await call(node.url, 'eth_chainId')).toBe(`0x${(1337).toString(16)}`);
      if (running) answered++;
      await new Promise((r) => setTimeout(r, 20));
    }
    const errors = await traces;
    const busy = errors.filter((e) => e.code === -32005);
    const capped = errors.filter((e) => e.code === -32602);
    expect(busy.length + capped.length).toBe(6);
    expect(busy.length).toBeGreaterThanOrEqual(3);
    expect(capped.length).toBeGreaterThanOrEqual(1);
    for (const e of busy) {
      expect(e.message).toContain('network.rpc.debug.max-concurrent-traces');
      expect(e.data?.backoffSeconds).toBeGreaterThan(0);
    }
    expect(answered).toBeGreaterThan(0);
    expect((kib(node.child.pid!, 'VmHWM') - idleRss) / MiB).toBeLessThan(512);
  }, 180_000);
});

describe('every tracing method at the memory cap', () => {
  let node: NodeProcess;
  let growTx = '';
  let callsTx = '';
  let growBlock = '';
  let callsBlock = '';

  beforeAll(async () => {
    node = await startNode({
      args: ['--no-p2p'],
      // A small cap, reached in a few thousand opcodes, and time enough for it on a loaded machine.
      env: { SVC_NODE_NETWORK_RPC_DEBUG_MAX_TRACE_BYTES: String(MiB), SVC_NODE_NETWORK_RPC_DEBUG_TRACE_TIMEOUT: '60s' },
    });
    await sendScenario(node.url, [
      { name: 'deploy grow', data: deployCode(memoryGrowRuntime), gas: 200_000 },
      { name: 'deploy call loop', data: deployCode(callLoopRuntime), gas: 200_000 },
    ]);
    [growTx, callsTx] = await sendScenario(node.url, [
      { name: 'grow', to: contractAt(0), gas: 5_000_000 },
      { name: 'calls', to: contractAt(1), gas: 5_000_000 },
    ]);
    growBlock = (await call(node.url, 'eth_getTransactionReceipt', [growTx])).blockNumber;
    callsBlock = (await call(node.url, 'eth_getTransactionReceipt', [callsTx])).blockNumber;
  }, 60_000);

  afterAll(async () => {
    await node?.stop();
  });

  it('answers -32602 naming network.rpc.debug.max-trace-bytes, whatever the method', async () => {
    const memory = { enableMemory: true };
    const growHash = (await call(node.url, 'eth_getBlockByNumber', [growBlock, false])).hash;
    const growRaw = await call(node.url, 'debug_getRawBlock', [growBlock]);
    const callsHash = (await call(node.url, 'eth_getBlockByNumber', [callsBlock, false])).hash;
    const calls = { from: ACCOUNT0, to: contractAt(1), gas: `0x${(5_000_000).toString(16)}` };
    const cases: Array<[string, unknown[]]> = [
      ['debug_traceTransaction', [growTx, memory]],
      ['debug_traceBlockByNumber', [growBlock, memory]],
      ['debug_traceBlockByHash', [growHash, memory]],
      ['debug_traceBlock', [growRaw, memory]],
      ['debug_traceCall', [{ from: ACCOUNT0, to: contractAt(0), gas: GAS }, 'latest', memory]],
      ['debug_traceTransaction', [callsTx, { tracer: 'callTracer' }]],
      ['trace_transaction', [callsTx]],
      ['trace_block', [callsBlock]],
      ['trace_filter', [{ fromBlock: callsBlock, toBlock: callsBlock }]],
      ['trace_replayTransaction', [callsTx, ['trace']]],
      ['trace_replayBlockTransactions', [callsBlock, ['trace']]],
      ['trace_call', [calls, ['trace'], 'latest']],
      ['ots_traceTransaction', [callsTx]],
      ['debug_traceBlockByHash', [callsHash, { tracer: 'flatCallTracer' }]],
    ];
    const answers = [];
    for (const [method, params] of cases) {
      const err = await refusal(node.url, method, params);
      answers.push({ method, code: err.code, namesTheCap: err.message.includes('network.rpc.debug.max-trace-bytes') });
    }
    expect(answers).toEqual(cases.map(([method]) => ({ method, code: -32602, namesTheCap: true })));
  }, 180_000);
});

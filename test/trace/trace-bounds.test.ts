/**
 * The caps on one trace: a 30 M-gas loop traced with debug_traceCall stops at the struct-log entry cap, the
 * result-size cap (trace_call's answer too, of a loop of calls) or the time cap, each answered naming the cap's
 * setting (or the request's own timeout): the size caps -32602 (the same trace always reaches them, and cast and
 * viem retry -32005 as a rate limit), the time cap -32005. While the trace runs the node keeps answering other
 * requests (the trace yields to the event loop).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeProcess, startNode } from '../helpers/node-process.js';
import { RpcCallError, call } from '../helpers/rpc.js';
import { callLoopRuntime, deployCode, loopRuntime } from './evm-asm.js';
import { ACCOUNT0, ACCOUNT1, contractAt, sendScenario } from './scenario.js';

let node: NodeProcess;
const loopCall = { from: ACCOUNT0, to: contractAt(0), gas: `0x${(30_000_000).toString(16)}` };

const refusal = async (config: object): Promise<RpcCallError> => {
  const err = await call(node.url, 'debug_traceCall', [loopCall, 'latest', config]).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(RpcCallError);
  return err as RpcCallError;
};

beforeAll(async () => {
  node = await startNode({
    args: ['--no-p2p'],
    env: {
      SVC_NODE_NETWORK_RPC_DEBUG_MAX_STRUCT_LOGS: '1000',
      SVC_NODE_NETWORK_RPC_DEBUG_MAX_TRACE_BYTES: '440000',
      // Long enough for a cold trace_call to reach the size cap on a loaded 2-core machine (it took 1.7 s there).
      SVC_NODE_NETWORK_RPC_DEBUG_TRACE_TIMEOUT: '4s',
    },
  });
  await sendScenario(node.url, [
    { name: 'deploy loop', data: deployCode(loopRuntime), gas: 100_000 },
    { name: 'deploy call loop', data: deployCode(callLoopRuntime), gas: 100_000 },
  ]);
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

describe('trace caps', () => {
  it('stops the struct logger at network.rpc.debug.max-struct-logs', async () => {
    const err = await refusal({ disableStack: true });
    expect(err.code).toBe(-32602);
    expect(err.message).toContain('network.rpc.debug.max-struct-logs');
    expect(err.message).toContain('1000');
  });

  it('stops a trace whose answer grows past network.rpc.debug.max-trace-bytes', async () => {
    const err = await refusal({});
    expect(err.code).toBe(-32602);
    expect(err.message).toContain('network.rpc.debug.max-trace-bytes');
  });

  it("stops trace_call's answer at network.rpc.debug.max-trace-bytes too", async () => {
    const callLoop = { ...loopCall, to: contractAt(1) };
    const err = await call(node.url, 'trace_call', [callLoop, ['trace'], 'latest']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcCallError);
    expect((err as RpcCallError).code).toBe(-32602);
    expect((err as RpcCallError).message).toContain('network.rpc.debug.max-trace-bytes');
  });

  it('refuses a call below the intrinsic gas -32000, as eth_call does, not as an internal fault', async () => {
    const low = { from: ACCOUNT0, to: ACCOUNT1, gas: '0x1770' };
    const answers = [];
    for (const [method, params] of [
      ['eth_call', [low, 'latest']],
      ['debug_traceCall', [low, 'latest', {}]],
      ['trace_call', [low, ['trace'], 'latest']],
    ] as const) {
      const err = await call(node.url, method, [...params]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RpcCallError);
      answers.push({
        method,
        code: (err as RpcCallError).code,
        intrinsic: String(err).includes('INTRINSIC_GAS_TOO_LOW'),
      });
    }
    expect(answers).toEqual(
      ['eth_call', 'debug_traceCall', 'trace_call'].map((method) => ({ method, code: -32000, intrinsic: true })),
    );
  });

  it('keeps `limit` a silent truncation under the cap, as geth does', async () => {
    // ~7,500 opcodes: past the 1,000-entry cap, but limit stops recording first and the call runs to its end.
    const short = { ...loopCall, gas: `0x${(30_000).toString(16)}` };
    const trace = await call(node.url, 'debug_traceCall', [short, 'latest', { limit: 5 }]);
    expect(trace.structLogs.map((e: { op: string }) => e.op)).toEqual([
      'JUMPDEST',
      'PUSH1',
      'JUMP',
      'JUMPDEST',
      'PUSH1',
    ]);
    expect(trace.failed).toBe(true);
  });

  it('stops at network.rpc.debug.trace-timeout and answers other requests meanwhile', async () => {
    // A node of its own with a short limit: callTracer runs the 30 M-gas loop (8 M opcodes) in about a second, under
    // the 4 s the other caps need; prestateTracer, which may read the state at any opcode, awaits every one of them.
    const timed = await startNode({ args: ['--no-p2p'], env: { SVC_NODE_NETWORK_RPC_DEBUG_TRACE_TIMEOUT: '500ms' } });
    try {
      await sendScenario(timed.url, [{ name: 'deploy loop', data: deployCode(loopRuntime), gas: 100_000 }]);
      let answered = 0;
      let done = false;
      const traced = call(timed.url, 'debug_traceCall', [loopCall, 'latest', { tracer: 'prestateTracer' }])
        .catch((e: unknown) => e)
        .finally(() => {
          done = true;
        });
      while (!done) {
        await call(timed.url, 'eth_blockNumber');
        if (!done) answered++;
      }
      const err = await traced;
      expect(err).toBeInstanceOf(RpcCallError);
      expect((err as RpcCallError).code).toBe(-32005);
      expect((err as RpcCallError).message).toContain('network.rpc.debug.trace-timeout');
      expect(answered).toBeGreaterThan(3);
    } finally {
      await timed.stop();
    }
  }, 60_000);

  it("takes the request's shorter timeout and names it", async () => {
    const err = await refusal({ tracer: 'callTracer', timeout: '300ms' });
    expect(err.code).toBe(-32005);
    expect(err.message).toContain("the request's timeout 300ms");
  });
});

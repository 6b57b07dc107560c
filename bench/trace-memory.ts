/**
 * What concurrent struct-logger traces with `enableMemory` cost the node: resident memory (sampled every 20 ms from
 * /proc, and the kernel's peak VmHWM) and the latency of `eth_chainId` asked one after another meanwhile. The traced
 * contract grows its memory by 256 bytes a turn until 30 M gas run out (test/trace/evm-asm.ts `memoryGrowRuntime`),
 * so every entry carries an ever larger memory; each trace is a `debug_traceCall` on the dev chain.
 *
 *   node bin/build.js && npx tsx bench/trace-memory.ts [--traces 6] [--rounds 1] [--method debug_traceCall] [--gas 30000000]
 *
 * `--gas` sets the traced call's gas: 30 M runs past the default 128 MiB budget, ~1.5 M makes an answer that fits.
 *
 * Extra node flags go after `--` (e.g. `-- --network.rpc.debug.max-trace-bytes 33554432`). Prints one JSON line per
 * round and the summary: idle RSS, peak RSS, the peak over idle, the worst and median eth_chainId latency, and the
 * answers the traces got (result or error code).
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { startNode } from '../test/helpers/node-process.js';
import { RpcCallError, call } from '../test/helpers/rpc.js';
import { deployCode, memoryGrowRuntime } from '../test/trace/evm-asm.js';
import { ACCOUNT0, contractAt, sendScenario } from '../test/trace/scenario.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    traces: { type: 'string', default: '6' },
    rounds: { type: 'string', default: '1' },
    method: { type: 'string', default: 'debug_traceCall' },
    gas: { type: 'string', default: '30000000' },
  },
});
const TRACES = Number(values.traces);
const ROUNDS = Number(values.rounds);
const mib = (bytes: number): number => Math.round(bytes / 2 ** 20);

function procStatus(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

// Results unvalidated, as in production (the test environment turns validation on).
const node = await startNode({
  args: ['--no-p2p', ...positionals],
  env: { SVC_NODE_NETWORK_RPC_VALIDATE_RESULTS: 'false' },
});
const pid = node.child.pid!;
try {
  const [hash] = await sendScenario(node.url, [{ name: 'deploy', data: deployCode(memoryGrowRuntime), gas: 200_000 }]);
  const mined = await call(node.url, 'eth_getTransactionReceipt', [hash]);
  const target = { from: ACCOUNT0, to: contractAt(0), gas: `0x${Number(values.gas).toString(16)}` };
  // A traced transaction for debug_traceTransaction: the same call mined (it fails out of gas, as the call does).
  const txHash =
    values.method === 'debug_traceTransaction'
      ? (await sendScenario(node.url, [{ name: 'grow', to: contractAt(0), gas: Number(values.gas) }]))[0]
      : undefined;
  if (mined === null) throw new Error('deploy not mined');
  await new Promise((r) => setTimeout(r, 1000));
  const idle = procStatus(pid, 'VmRSS');
  // eth_chainId with nothing else running: the machine's own latency, to read the figures under load against.
  const idleLatencies: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    await call(node.url, 'eth_chainId');
    idleLatencies.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 10));
  }
  idleLatencies.sort((a, b) => a - b);
  const idleChainId = `worst ${idleLatencies.at(-1)?.toFixed(1)} ms, median ${idleLatencies[25].toFixed(1)} ms`;
  for (let round = 0; round < ROUNDS; round++) {
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, procStatus(pid, 'VmRSS'));
    }, 20);
    const config = { enableMemory: true };
    const params = txHash !== undefined ? [txHash, config] : [target, 'latest', config];
    const started = performance.now();
    let done = 0;
    const answers = await Promise.all(
      Array.from({ length: TRACES }, () =>
        call(node.url, values.method!, params, 600_000)
          .then((r: { structLogs?: unknown[] }) => `result (${r.structLogs?.length ?? '?'} entries)`)
          .catch((e: unknown) => (e instanceof RpcCallError ? `${e.code} ${e.message.slice(0, 120)}` : String(e)))
          .finally(() => done++),
      ).concat([
        (async () => {
          const latencies: number[] = [];
          const slow: string[] = [];
          while (done < TRACES) {
            const t = performance.now();
            // No answer within 60 s counts as 60 s (the unbounded node left eth_chainId waiting that long).
            await call(node.url, 'eth_chainId', [], 60_000).catch(() => undefined);
            latencies.push(performance.now() - t);
            if (performance.now() - t > 100)
              slow.push(`${(performance.now() - t).toFixed(0)} ms at ${(t - started).toFixed(0)} ms`);
            await new Promise((r) => setTimeout(r, 10));
          }
          latencies.sort((a, b) => a - b);
          return `chainId: ${latencies.length} answers, worst ${latencies.at(-1)?.toFixed(1)} ms, median ${latencies[latencies.length >> 1]?.toFixed(1)} ms; over 100 ms: ${slow.join(', ') || 'none'}`;
        })(),
      ]),
    );
    clearInterval(sampler);
    peak = Math.max(peak, procStatus(pid, 'VmRSS'));
    console.log(
      JSON.stringify({
        round,
        traces: TRACES,
        method: values.method,
        seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
        idleRssMiB: mib(idle),
        peakRssMiB: mib(peak),
        overIdleMiB: mib(peak - idle),
        vmHwmMiB: mib(procStatus(pid, 'VmHWM')),
        idleChainId,
        chainId: answers.pop(),
        answers: [...new Set(answers)].map((a) => `${answers.filter((b) => b === a).length}× ${a}`),
      }),
    );
  }
} finally {
  await node.stop();
}

/**
 * `npx tsx bench/trace-engine.ts [ms=3000] [only]`: the trace engine alone, in process (no HTTP, no JSON-RPC
 * dispatch): the trace bench's countdown transaction (bench/trace.ts) on a dev chain, traced with the struct logger
 * and callTracer for `ms` each (`only`: just the runs named in it, comma-separated); per tracer, ms per trace for the
 * trace and for its answer's JSON, and the process's CPU ms per trace (a loaded machine stretches it less). Run it
 * under `node --cpu-prof` (`node --cpu-prof --import tsx bench/trace-engine.ts`) to see where a trace's time goes
 * without the transport.
 */
import { hexToBytes } from '@ethereumjs/util';
import { performance } from 'node:perf_hooks';
import { JsonText } from '../src/chain/trace/json.js';
import { traceTransaction } from '../src/chain/trace/replay.js';
import { RawJson, responseText } from '../src/rpc/raw-json.js';
import type { TraceOptions } from '../src/chain/trace/types.js';
import { mine, openDevChain, signedTx, tempDir } from '../test/chain/engine/fixtures.js';
import { countdownRuntime, deployCode } from '../test/trace/evm-asm.js';

const ms = Number(process.argv[2] ?? 3000);
const only = process.argv[3]?.split(',');
const dir = tempDir('trace-engine-');
const chain = await openDevChain(dir.dir);
try {
  const deploy = signedTx(chain, {
    from: 0,
    nonce: 0n,
    data: hexToBytes(deployCode(countdownRuntime) as `0x${string}`),
    gasLimit: 300_000n,
  });
  const { assembled } = await mine(chain, [deploy]);
  const countdown = assembled.receipts[0]!.contractAddress!;
  const data = hexToBytes(`0x${(142).toString(16).padStart(64, '0')}`);
  const tx = signedTx(chain, { from: 0, nonce: 1n, to: countdown, data, gasLimit: 1_000_000n });
  await mine(chain, [tx]);
  const hash = tx.hash();
  const allRuns: [string, TraceOptions][] = [
    ['struct logger', { jsonText: true }],
    ['struct logger (objects)', {}],
    ['struct logger (generic)', { generic: true }],
    ['callTracer', { tracer: 'callTracer', jsonText: true }],
    ['callTracer (generic)', { tracer: 'callTracer', generic: true }],
  ];
  const runs = allRuns.filter(([name]) => only === undefined || only.includes(name));
  // A first round warms the code up (JIT) and is not reported.
  for (const [round, [name, opts]] of [...runs, ...runs].entries()) {
    const fastResult = await traceTransaction(chain, hash, opts);
    const fast = fastResult instanceof JsonText ? fastResult.text : JSON.stringify(fastResult);
    const generic = JSON.stringify(await traceTransaction(chain, hash, { ...opts, generic: true }));
    if (fast !== generic) throw new Error(`${name}: the default path's answer differs from the generic path's`);
    let n = 0;
    let traceMs = 0;
    let jsonMs = 0;
    let bytes = 0;
    const cpu = process.cpuUsage();
    const end = performance.now() + ms;
    while (performance.now() < end) {
      const t0 = performance.now();
      const result = await traceTransaction(chain, hash, opts);
      const t1 = performance.now();
      bytes = responseText({
        jsonrpc: '2.0',
        id: 1,
        result: result instanceof JsonText ? new RawJson(result.pieces, result.release) : result,
      }).length;
      jsonMs += performance.now() - t1;
      traceMs += t1 - t0;
      n++;
    }
    const used = process.cpuUsage(cpu);
    const per = (x: number) => (x / n).toFixed(3);
    if (round < runs.length) continue;
    const cpuMs = per((used.user + used.system) / 1000);
    process.stdout.write(
      `${name}: ${n} traces, ${per(traceMs)} ms trace + ${per(jsonMs)} ms JSON (${bytes} bytes); ${cpuMs} ms CPU\n`,
    );
  }
} finally {
  await chain.close();
  dir.remove();
}

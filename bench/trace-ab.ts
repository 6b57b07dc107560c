/**
 * `npx tsx bench/trace-ab.ts [seconds=20] [tracer=callTracer]`: CPU per trace of the trace bench's countdown
 * transaction (bench/trace.ts) in one process, alternating every 100 traces between this checkout's default path
 * and the path before issue 40b (a step probe for every tracer, replays on the library's frames: `TraceSession`'s
 * frames-only attach and `BlockRunner`'s `leanEvm` switched off for B). Taking turns in one process puts machine load
 * on both alike, which separate runs on a shared machine do not. Kept reads (state/kept-reads.ts) are on in both.
 */
import { hexToBytes } from '@ethereumjs/util';
import { BlockRunner } from '../src/chain/exec/block-runner.js';
import { TraceSession } from '../src/chain/trace/hooks.js';
import { traceTransaction } from '../src/chain/trace/replay.js';
import type { TraceOptions } from '../src/chain/trace/types.js';
import { mine, openDevChain, signedTx, tempDir } from '../test/chain/engine/fixtures.js';
import { countdownRuntime, deployCode } from '../test/trace/evm-asm.js';

const seconds = Number(process.argv[2] ?? 20);
const tracer = process.argv[3] ?? 'callTracer';
const dir = tempDir('trace-ab-');
const chain = await openDevChain(dir.dir);
const attachFrames = TraceSession.prototype.attachFrames;
const start = BlockRunner.start.bind(BlockRunner);
function pathB(on: boolean): void {
  TraceSession.prototype.attachFrames = on ? async () => false : attachFrames;
  BlockRunner.start = on ? (input) => start({ ...input, leanEvm: false }) : start;
}
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
  const opts: TraceOptions = tracer === 'struct' ? { jsonText: true } : { tracer, jsonText: true };
  const cpu = { A: 0, B: 0 };
  const n = { A: 0, B: 0 };
  const end = performance.now() + seconds * 1000;
  for (let turn = 0; performance.now() < end || turn < 4; turn++) {
    const side = turn % 2 === 0 ? 'A' : 'B';
    pathB(side === 'B');
    for (let i = 0; i < 5; i++) await traceTransaction(chain, hash, opts); // the switch's VM, warm
    const c0 = process.cpuUsage();
    for (let i = 0; i < 100; i++) await traceTransaction(chain, hash, opts);
    const c = process.cpuUsage(c0);
    if (turn < 2) continue; // JIT warm-up
    cpu[side] += (c.user + c.system) / 1000;
    n[side] += 100;
  }
  pathB(false);
  const per = (s: 'A' | 'B') => (cpu[s] / n[s]).toFixed(3);
  process.stdout.write(
    `${tracer}: A (this path) ${per('A')} ms CPU per trace, B (before) ${per('B')} ms (${n.A} + ${n.B} traces)\n`,
  );
} finally {
  await chain.close();
  dir.remove();
}

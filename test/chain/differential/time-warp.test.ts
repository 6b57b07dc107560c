/**
 * Block execution may depend neither on the clock nor on the requests served meanwhile. The dev miner makes random
 * blocks (harness.ts, the default seed) while `performance.now()` runs an hour ahead at every read, so every
 * wall-clock limit in the process (eth_call deadlines, trace timeouts and slices, background build slices) is past
 * at its next check, and while traces (one capped at 20 struct-log entries) and eth_calls with deadlines run between
 * and during the blocks (the traces take turns of the event loop inside their replays; some stop mid-run, at their
 * cap or deadline); the blocks must still be the ones @ethereumjs/vm makes of the same transactions. A time limit
 * meant for a call or a trace that reached the miner's EVM would stop one of its transactions here (the miner skips
 * it) instead of on a loaded machine only.
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChainEngine } from '../../../src/chain/engine/engine.js';
import { traceTransaction } from '../../../src/chain/index.js';
import { scopedEngines } from '../engine/scoped-engines.js';
import { runDifferential } from './harness.js';

const engines = scopedEngines('warp-');

afterEach(() => {
  vi.restoreAllMocks();
});

/** How far the clock moves at every read: past any time limit the node sets, at its next check. */
const WARP_MS = 3_600_000;

/** From now on every read of the clock is `WARP_MS` after the previous one. */
function warpClock(): void {
  const real = performance.now.bind(performance);
  let skew = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => {
    skew += WARP_MS;
    return real() + skew;
  });
}

interface Noise {
  /** Requests answered, and stopped by their limit. */
  answered: number;
  stopped: number;
  /** A request under way (the miner's `sealed` counts the blocks sealed while one was: `during`). */
  busy: boolean;
  during: number;
}

/**
 * Until `done`, for each of the head's transactions: a struct-logger trace capped at 20 entries (under the warped
 * clock it takes a turn of the event loop every few steps, and stops mid-run at the cap), a callTracer trace (frames
 * only: it takes turns too and runs to the end) and an eth_call with a deadline a few clock reads away.
 */
async function requestsMeanwhile(engine: ChainEngine, done: () => boolean, noise: Noise): Promise<void> {
  const limited = (err: unknown) => {
    const name = (err as { name?: string }).name;
    if (name !== 'TraceLimitError' && name !== 'CallTimeoutError') throw err;
    noise.stopped++;
  };
  const answered = () => {
    noise.answered++;
  };
  while (!done()) {
    noise.busy = true;
    const head = engine.chain.getHead();
    for (const tx of head.transactions) {
      await traceTransaction(engine.chain, tx.hash(), { limits: { maxStructLogs: 20 } }).then(answered, limited);
      await traceTransaction(engine.chain, tx.hash(), { tracer: 'callTracer' }).then(answered, limited);
      const msg = {
        from: tx.getSenderAddress().bytes,
        ...(tx.to !== undefined ? { to: tx.to.bytes } : {}),
        data: tx.data,
        gas: tx.gasLimit,
        deadline: { at: performance.now() + 3.5 * WARP_MS, limitMs: 3.5 * WARP_MS },
      };
      await engine.chain.call(head.header.number, msg).then(answered, limited);
    }
    noise.busy = false;
    await nextTurn();
  }
}

describe('block execution against a clock that races and requests with time limits', () => {
  it('makes the reference blocks', { timeout: 120_000 }, async () => {
    const engine = engines.adopt(
      await ChainEngine.open({
        dataDir: engines.newDir(),
        network: 'dev',
        seal: 'instant',
        mining: { coinbase: new Uint8Array(20).fill(0xcb) },
        writeBehind: true,
      }),
    );
    warpClock();
    const noise: Noise = { answered: 0, stopped: 0, busy: false, during: 0 };
    engine.miner.on('sealed', () => {
      if (noise.busy) noise.during++;
    });
    let done = false;
    const meanwhile = requestsMeanwhile(engine, () => done, noise);
    try {
      const summary = await runDifferential(engine, { seed: 2, blocks: 6, tracesPerBlock: 1 });
      expect(summary.transactions).toBeGreaterThan(summary.blocks * 3);
    } finally {
      done = true;
      await meanwhile;
    }
    console.log(`requests meanwhile: ${JSON.stringify(noise)}`);
    // Requests ran to their end and others stopped at their limits meanwhile.
    expect(noise.answered).toBeGreaterThan(0);
    expect(noise.during, 'blocks sealed while a request was under way').toBeGreaterThan(0);
    expect(noise.stopped).toBeGreaterThan(0);
  });
});

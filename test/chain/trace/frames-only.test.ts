/**
 * Tracers of frames (callTracer, flatCallTracer, 4byteTracer, otsTracer, the noop tracer) run their transaction's
 * steps as an untraced call does (trace/hooks.ts `attachFrames`, exec/op-probe.ts): inline, on the lean frames,
 * with no per-step probe; and such a trace still stops at its deadline and gives the event loop turns while it runs.
 * That their answers are the generic path's is test/chain/trace/fast-path.test.ts's job. A replay's reverted parent
 * state keeps the accounts the replay read (state/kept-reads.ts); it is reverted after the trace is answered, or by
 * the next replay on it if that comes first (replay-states.ts).
 */
import { Address, hexToBytes } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { stepCounts } from '../../../src/chain/exec/sync-step.js';
import { traceTransaction } from '../../../src/chain/trace/replay.js';
import { leaveState, takeState } from '../../../src/chain/trace/replay-states.js';
import { WrittenKeys } from '../../../src/chain/state/written-keys.js';
import { TraceLimitError } from '../../../src/chain/trace/types.js';
import { deployCode, loopRuntime, memoryGrowRuntime } from '../../trace/evm-asm.js';
import { addresses, mine, openDevChain, signedTx, tempDir } from '../engine/fixtures.js';

const dir = tempDir('frames-only-');
let chain: Blockchain;
/** A memory loop (an MSTORE per turn until out of gas) and an endless loop, each called once. */
let memoryTx: Uint8Array;
let loopTx: Uint8Array;

beforeAll(async () => {
  chain = await openDevChain(dir.dir);
  const deploys = [memoryGrowRuntime, loopRuntime].map((runtime, i) =>
    signedTx(chain, {
      from: 0,
      nonce: BigInt(i),
      data: hexToBytes(deployCode(runtime) as `0x${string}`),
      gasLimit: 200_000n,
    }),
  );
  const { assembled } = await mine(chain, deploys);
  const [memory, loop] = assembled.receipts.map((r) => r.contractAddress!);
  const calls = [
    signedTx(chain, { from: 0, nonce: 2n, to: memory, gasLimit: 300_000n }),
    signedTx(chain, { from: 0, nonce: 3n, to: loop, gasLimit: 8_000_000n }),
  ];
  await mine(chain, calls);
  [memoryTx, loopTx] = calls.map((tx) => tx.hash());
}, 60_000);

afterAll(async () => {
  await chain?.close();
  dir.remove();
});

/** Inline steps a trace runs in ~20 ms on this machine when nothing stops it (~35 ns a step since the gas lane). */
const STEPS_OF_20_MS = 600_000;

describe('tracers of frames', () => {
  it('run every step inline, memory opcodes too, as an untraced call does', async () => {
    for (const tracer of ['callTracer', 'flatCallTracer', '4byteTracer']) {
      const before = stepCounts();
      const result = await traceTransaction(chain, memoryTx, { tracer });
      const after = stepCounts();
      expect(result).toBeDefined();
      // A step probe would take every MSTORE (memory gas) through the library's step.
      expect(after.library - before.library, tracer).toBe(0);
      expect(after.inline - before.inline, tracer).toBeGreaterThan(500);
    }
    const frame = (await traceTransaction(chain, memoryTx, { tracer: 'callTracer' })) as { error?: string };
    expect(frame.error).toBe('out of gas');
  });

  it('stop at the deadline and give the event loop turns meanwhile', async () => {
    // The loop's 8M gas is ~2M steps: ~70 ms on the lean frame loop, so the deadline is well below that.
    let turns = 0;
    const stepsBefore = stepCounts().inline;
    const ticker = setInterval(() => turns++, 1);
    const started = performance.now();
    try {
      const err = await traceTransaction(chain, loopTx, { tracer: 'callTracer', limits: { timeoutMs: 25 } }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(TraceLimitError);
      expect((err as TraceLimitError).cap).toBe('timeout');
    } finally {
      clearInterval(ticker);
    }
    // Turns every ~5 ms of tracing (hooks.ts SLICE_MS); a stalled loop gives none. The steps run tell a trace that
    // ran from a process the machine stopped past the deadline (CI on a busy machine once saw 0 turns, and few steps).
    const steps = stepCounts().inline - stepsBefore;
    if (steps >= STEPS_OF_20_MS) expect(turns).toBeGreaterThanOrEqual(2);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('a replay on a kept parent state', () => {
  it('leaves the accounts it read in the state cache when it reverts', async () => {
    const found = await chain.getTransaction(memoryTx);
    const parent = (await chain.getHeader(found!.block.header.parentHash))!;
    const { store, stateRoot } = chain.replayBase(parent);
    const common = chain.commonAt(found!.block.header.number);
    const sender = new Address(addresses[0]!);
    await traceTransaction(chain, memoryTx, { tracer: 'callTracer' });
    await new Promise((resolve) => setImmediate(resolve)); // the revert's turn
    const kept = takeState(chain, stateRoot, common, store);
    expect(kept).toBeDefined();
    expect(kept).not.toBeInstanceOf(Promise);
    if (kept instanceof Promise) return;
    // The sender was read inside the replay's checkpoint; the revert must not have dropped it.
    expect(kept!.stateManager.cachedAccount(sender)?.nonce).toBe(2n);
    leaveState(chain, stateRoot, common, store, kept!);
    // Reads kept are the parent's values: a second trace answers the same.
    expect(JSON.stringify(await traceTransaction(chain, memoryTx, { tracer: 'callTracer' }))).toBe(
      JSON.stringify(await traceTransaction(chain, memoryTx, { tracer: 'callTracer', generic: true })),
    );
  });

  it('is reverted by a replay that takes it before its turn came, and answers the same', async () => {
    const found = await chain.getTransaction(memoryTx);
    const parent = (await chain.getHeader(found!.block.header.parentHash))!;
    const { store, stateRoot } = chain.replayBase(parent);
    const common = chain.commonAt(found!.block.header.number);
    const first = JSON.stringify(await traceTransaction(chain, memoryTx, { tracer: 'callTracer' }));
    // Still reverting, in the microtasks after the answer: a replay now takes it and waits for the revert.
    const taken = takeState(chain, stateRoot, common, store);
    expect(taken).toBeInstanceOf(Promise);
    const kept = (await taken)!;
    expect(kept.stateManager.cachedAccount(new Address(addresses[0]!))?.nonce).toBe(2n);
    leaveState(chain, stateRoot, common, store, kept);
    const traces = await Promise.all([1, 2].map(() => traceTransaction(chain, memoryTx, { tracer: 'callTracer' })));
    for (const trace of traces) expect(JSON.stringify(trace)).toBe(first);
  });

  it('is not an imported block: it lists no flat-state changes and notes no written keys', async () => {
    const found = await chain.getTransaction(memoryTx);
    const parent = (await chain.getHeader(found!.block.header.parentHash))!;
    const { store, stateRoot } = chain.replayBase(parent);
    const common = chain.commonAt(found!.block.header.number);
    // The dev chain's written keys (what anvil_dumpState names), as a node keeping them has them.
    const written = new WrittenKeys();
    const before = store.writtenKeys;
    store.writtenKeys = written;
    try {
      takeState(chain, stateRoot, common, store); // the next trace opens the state afresh
      // The transaction writes its sender's account and the coinbase's.
      await traceTransaction(chain, memoryTx, { tracer: 'callTracer' });
    } finally {
      store.writtenKeys = before;
    }
    expect([...written.allAddresses()]).toHaveLength(0);
    const kept = (await takeState(chain, stateRoot, common, store))!;
    // A listing begun on the replay's state would go on for every later replay on it (a copy of each account's
    // encoding before each write), with nobody ever taking it.
    expect(kept.stateManager.takeFlatChanges(stateRoot)).toBeUndefined();
    leaveState(chain, stateRoot, common, store, kept);
  });
});

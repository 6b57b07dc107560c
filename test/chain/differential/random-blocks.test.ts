/**
 * Issue 40's proof for the narrower execution paths: random blocks (transfers, calls, creations, reverts,
 * self-destructs, storage churn; ETC rules) made by the engine as the dev node runs it, then run by a plain
 * @ethereumjs/vm and compared block by block: roots, receipts, gas, logs, bloom, created addresses, the engine's
 * reads, struct logger and callTracer traces, and random eth_calls (harness.ts). `DIFF_BLOCKS=n` (and `DIFF_SEED`)
 * makes a longer soak run.
 */
import { describe, expect, it } from 'vitest';
import { ChainEngine } from '../../../src/chain/engine/engine.js';
import { CallExecutor } from '../../../src/chain/exec/call.js';
import { scopedEngines } from '../engine/scoped-engines.js';
import { type BlockSubject, type CallSubject, runDifferential } from './harness.js';

const BLOCKS = Number(process.env.DIFF_BLOCKS ?? 12);
const SEED = Number(process.env.DIFF_SEED ?? 40);
const COINBASE = new Uint8Array(20).fill(0xcb);

/** Engines under test: each makes the blocks the reference then runs. */
const BLOCK_SUBJECTS: readonly BlockSubject[] = [
  {
    name: 'dev miner (instant seal: warm state, flat state, plain transfers)',
    open: (dataDir) => ChainEngine.open({ dataDir, network: 'dev', seal: 'instant', mining: { coinbase: COINBASE } }),
  },
];

/** eth_call paths under test, each against runTx on a fresh VM. */
const CALL_SUBJECTS: readonly CallSubject[] = [
  { name: 'engine call (lean path)', call: async (engine, n, msg) => (await engine.chain.call(n, msg))! },
];

const engines = scopedEngines('diff-');

describe('random blocks against @ethereumjs/vm', () => {
  for (const subject of BLOCK_SUBJECTS) {
    it(`${subject.name}: ${BLOCKS} blocks`, { timeout: 60_000 + BLOCKS * 5_000 }, async () => {
      const engine = await subject.open(engines.newDir());
      const summary = await runDifferential(engine, {
        seed: SEED,
        blocks: BLOCKS,
        calls: BLOCKS * 4,
        callSubjects: CALL_SUBJECTS,
      });
      console.log(subject.name, JSON.stringify(summary));
      expect(summary.transactions).toBeGreaterThan(BLOCKS);
    });
  }
});

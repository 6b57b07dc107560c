/**
 * The lean frame loop's lane (src/chain/exec/sync-step.ts `laneLoop`) counts a static-gas step's gas in a number and
 * writes the run state's BigInt back before anything reads it. Random programs run on an EVM in the lane (no `step`
 * listener, a call VM's lean opcodes) and on one outside it (a `step` listener: every step is the library's own
 * `runStep`, gas a BigInt, the library's handlers), and must end alike: gas used, return data (which carries the GAS
 * opcode's readings, in the frame and in nested calls given gas by GAS or a number), error, refund. Each program runs
 * at a generous gas limit, at exactly the gas it used and one below (out of gas on the last step's boundary), and at
 * random limits in between. The same calls also run on an untouched copy of the library in a worker thread (its own
 * module instance, which the node's interpreter wrapper never patched).
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createEVM, type EVM } from '@ethereumjs/evm';
import { bytesToHex, createAddressFromString } from '@ethereumjs/util';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { callDeadlineInstalled } from '../../../src/chain/exec/call-deadline.js';
import { leanOpcodes } from '../../../src/chain/exec/call-opcodes.js';
import { stepCounts } from '../../../src/chain/exec/sync-step.js';
import { seededRandom as seeded } from '../../helpers/seeded-random.js';

const CALLER = createAddressFromString('0x00000000000000000000000000000000000000ca');
const TOP = createAddressFromString('0x000000000000000000000000000000000000c0a1');
const CHILD = createAddressFromString('0x000000000000000000000000000000000000c0b2');

/** Random legacy code: static-gas arithmetic and loops, GAS readings kept in memory, nested calls, memory growth. */
function program(random: () => number, callee: Uint8Array | undefined): Uint8Array {
  const int = (n: number) => Math.floor(random() * n);
  const ops: number[] = [];
  const push2 = (n: number) => ops.push(0x61, n >> 8, n & 255);
  let slot = 0;
  /** Stores the top of the stack in the next memory word (returned at the end). */
  const keep = () => {
    push2((slot++ % 8) * 32);
    ops.push(0x52);
  };
  for (let i = 0, n = 3 + int(12); i < n; i++) {
    const kind = int(7);
    if (kind === 0) {
      ops.push(0x5a);
      keep();
    } else if (kind === 1) {
      // PUSH a, PUSH b, one of ADD MUL SUB DIV LT GT EQ AND OR XOR SHL, then DUP/SWAP/POP around it.
      ops.push(
        0x60,
        int(256),
        0x60,
        int(256),
        [0x01, 0x02, 0x03, 0x04, 0x10, 0x11, 0x14, 0x16, 0x17, 0x18, 0x1b][int(11)]!,
      );
      if (random() < 0.5) ops.push(0x80, 0x90, 0x50);
      keep();
    } else if (kind === 2) {
      // A countdown loop of fixed-gas steps: n, JUMPDEST, 1, SWAP1, SUB, DUP1, PUSH2 dest, JUMPI, POP.
      ops.push(0x60, 1 + int(40));
      const dest = ops.length;
      ops.push(0x5b, 0x60, 1, 0x90, 0x03, 0x80);
      push2(dest);
      ops.push(0x57, 0x50);
    } else if (kind === 3 && callee !== undefined) {
      // CALL the callee, its 32-byte answer into a memory word, with all gas (GAS) or a number of it.
      push2(32);
      push2((slot++ % 8) * 32);
      ops.push(0x60, 0, 0x60, 0, 0x60, 0, 0x73, ...callee);
      if (random() < 0.5) ops.push(0x5a);
      else push2(int(20_000));
      ops.push(0xf1);
      keep();
    } else if (kind === 4) {
      // Memory past the returned words (dynamic gas), then a GAS reading.
      ops.push(0x60, int(256));
      push2(0x100 + int(0x400));
      ops.push(0x52, 0x5a);
      keep();
    } else if (kind === 5) {
      ops.push(0x5f, 0x5f, 0x01, 0x58, 0x59, 0x01, 0x01);
      keep();
    } else {
      // A loop that never ends, sometimes: out of gas in this frame (all its gas spent).
      if (random() < 0.15) {
        const dest = ops.length;
        ops.push(0x5b);
        push2(dest);
        ops.push(0x56);
      } else ops.push(0x5b, 0x5a, 0x50);
    }
  }
  ops.push(0x61, 1, 0, 0x60, 0, 0xf3);
  return Uint8Array.from(ops);
}

async function evmWith(top: Uint8Array, child: Uint8Array, lane: boolean): Promise<EVM> {
  const evm = await createEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Shanghai }) });
  await evm.stateManager.putCode(TOP, top);
  await evm.stateManager.putCode(CHILD, child);
  if (lane) expect(leanOpcodes(evm)).toBe(true);
  else evm.events.on('step', () => {});
  return evm;
}

/** One call on a fresh EVM (a second call on the same one may find accounts the first created). */
async function outcome(top: Uint8Array, child: Uint8Array, lane: boolean, gasLimit: bigint) {
  const evm = await evmWith(top, child, lane);
  const { execResult } = await evm.runCall({ caller: CALLER, to: TOP, gasLimit });
  return {
    gasUsed: execResult.executionGasUsed,
    returned: bytesToHex(execResult.returnValue),
    error: execResult.exceptionError?.error,
    refund: execResult.gasRefund,
  };
}

interface Case {
  readonly top: Uint8Array;
  readonly child: Uint8Array;
  readonly gasLimit: bigint;
}
type Outcome = Awaited<ReturnType<typeof outcome>>;

/** The worker: the library's CommonJS build, loaded by path, runs each case on a fresh EVM. */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
(async () => {
  const [{ createEVM }, { Common, Mainnet }, { bytesToHex, createAddressFromString }] = await Promise.all(
    workerData.paths.map((p) => import(pathToFileURL(p).href)),
  );
  const at = (hex) => createAddressFromString(hex);
  const out = [];
  for (const c of workerData.cases) {
    const evm = await createEVM({ common: new Common({ chain: Mainnet, hardfork: 'shanghai' }) });
    await evm.stateManager.putCode(at(workerData.top), c.top);
    await evm.stateManager.putCode(at(workerData.child), c.child);
    const { execResult } = await evm.runCall({ caller: at(workerData.caller), to: at(workerData.top), gasLimit: c.gasLimit });
    out.push({
      gasUsed: execResult.executionGasUsed,
      returned: bytesToHex(execResult.returnValue),
      error: execResult.exceptionError?.error,
      refund: execResult.gasRefund,
    });
  }
  parentPort.postMessage(out);
})().catch((err) => parentPort.postMessage(String(err)));
`;

/** `cases` run by the untouched library in a worker thread. */
async function untouchedLibrary(cases: readonly Case[]): Promise<Outcome[]> {
  const require = createRequire(import.meta.url);
  const paths = ['@ethereumjs/evm', '@ethereumjs/common', '@ethereumjs/util'].map((p) => require.resolve(p));
  const workerData = { paths, cases, caller: CALLER.toString(), top: TOP.toString(), child: CHILD.toString() };
  const worker = new Worker(WORKER, { eval: true, workerData });
  try {
    const answer = await new Promise<Outcome[] | string>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    if (typeof answer === 'string') throw new Error(answer);
    return answer;
  } finally {
    await worker.terminate();
  }
}

describe('the lean frame loop counting gas in a number', () => {
  it('ends random programs as the library does: gas used, GAS readings, nested calls, out of gas at the boundary', async () => {
    expect(await callDeadlineInstalled).toBe(true);
    const random = seeded(4040);
    const seen = { outOfGas: 0, returned: 0, boundary: 0 };
    const cases: Case[] = [];
    const inLane: Outcome[] = [];
    for (let i = 0; i < 60; i++) {
      const child = program(random, undefined);
      const top = program(random, CHILD.bytes);
      const generous = await outcome(top, child, false, 300_000n);
      const limits = [300_000n, generous.gasUsed, generous.gasUsed - 1n, 21_000n + BigInt(Math.floor(random() * 9000))];
      for (const gasLimit of limits) {
        const inlineBefore = stepCounts().inline;
        const a = await outcome(top, child, true, gasLimit);
        const ranInline = stepCounts().inline - inlineBefore;
        // The reference at 300,000 gas is the generous run above: the same call on a fresh EVM, so not run twice.
        const b = gasLimit === 300_000n ? generous : await outcome(top, child, false, gasLimit);
        cases.push({ top, child, gasLimit });
        inLane.push(a);
        expect({ i, gasLimit, ...a }, `program ${i} at ${gasLimit}`).toEqual({ i, gasLimit, ...b });
        // Sanity: the lane ran the steps, the reference none of them.
        expect(ranInline).toBeGreaterThan(0);
        if (b.error === 'out of gas') seen.outOfGas++;
        else seen.returned++;
        if (gasLimit === generous.gasUsed - 1n && b.error === 'out of gas' && generous.error === undefined)
          seen.boundary++;
      }
    }
    expect(Object.values(seen).every((n) => n > 10)).toBe(true);
    const library = await untouchedLibrary(cases);
    for (const [i, a] of inLane.entries()) expect({ i, ...a }, `case ${i}`).toEqual({ i, ...library[i] });
  });
});

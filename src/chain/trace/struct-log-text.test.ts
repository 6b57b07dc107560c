/**
 * The JSON-text struct logger (bytes into one buffer) against the object one (the reference) over seeded random
 * steps, without an EVM: the values an EVM run rarely reaches in a test chain (stack words between 2^32 and 2^53
 * with low halves that need padding, gas above 2^31, a gasCost whose digit count changes when a CALL's forwarded
 * gas is added, memories that grow, shrink, change a row or stay put, non-ASCII error text). Same text, same budget.
 */
import { describe, expect, it } from 'vitest';
import { TraceBudget } from './budget.js';
import { putHexUint, putUint } from './json-bytes.js';
import { StructLogText } from './struct-log-text.js';
import { StructLogger } from './struct-logger.js';
import type { StepInfo, StructLoggerConfig } from './types.js';

/** mulberry32, so a failure can be found again from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const OPS: readonly [number, string][] = [
  [0x01, 'ADD'],
  [0x60, 'PUSH1'],
  [0x54, 'SLOAD'],
  [0x55, 'SSTORE'],
  [0xf1, 'CALL'],
  [0xfa, 'STATICCALL'],
  [0x52, 'MSTORE'],
  [0x5b, 'JUMPDEST'],
];

/** Interesting stack words: around the edges the writer treats apart. */
function word(next: () => number): bigint {
  const k = Math.floor(next() * 8);
  const r = BigInt(Math.floor(next() * 2 ** 32));
  if (k === 0) return BigInt(Math.floor(next() * 16));
  if (k === 1) return (1n << 32n) + (r & 0xffffn); // high half 1, low half padded
  if (k === 2) return (r << 20n) | BigInt(Math.floor(next() * 16)); // up to 2^52, low digits zero-padded
  if (k === 3) return BigInt(Number.MAX_SAFE_INTEGER) + BigInt(Math.floor(next() * 3)) - 1n; // either side of 2^53
  if (k === 4) return (1n << 256n) - 1n - r;
  if (k === 5) return r;
  if (k === 6) return 0n;
  return (r << 128n) | r;
}

interface Scripted {
  readonly step: StepInfo;
  /** What the hook layer calls after the step: a CALL's forwarded gas, a frame's failure. */
  readonly forwarded: bigint | undefined;
  readonly error: string | undefined;
}

function script(seed: number, length: number): Scripted[] {
  const next = random(seed);
  const stored = new Map<string, Uint8Array>();
  const state = {
    getStorage: async (_address: unknown, key: Uint8Array) =>
      stored.get(Buffer.from(key).toString('hex')) ?? new Uint8Array(32),
  } as unknown as StepInfo['state'];
  const steps: Scripted[] = [];
  let stack: bigint[] = [];
  let memory = new Uint8Array(0);
  for (let i = 0; i < length; i++) {
    const [op, opName] = OPS[Math.floor(next() * OPS.length)]!;
    // The stack: mostly the last one with a change at the top, now and then a fresh one.
    if (next() < 0.1) stack = Array.from({ length: Math.floor(next() * 6) }, () => word(next));
    else if (next() < 0.5 || stack.length < 2) stack = [...stack, word(next)];
    else stack = [...stack.slice(0, -2), word(next)];
    // The memory: kept, one row changed, grown, or a new frame's (smaller or empty).
    const m = next();
    if (m < 0.15) {
      const grown = new Uint8Array(memory.length + 32 * (1 + Math.floor(next() * 3)));
      grown.set(memory);
      memory = grown;
    } else if (m < 0.3 && memory.length > 0) {
      memory = memory.slice();
      memory[Math.floor(next() * memory.length)] = Math.floor(next() * 256);
    } else if (m < 0.35) memory = new Uint8Array(32 * Math.floor(next() * 3));
    if (op === 0x55 && stack.length >= 2) {
      const key = Buffer.alloc(32);
      key.writeUInt32BE(Number(stack[stack.length - 1]! & 0xffffffffn), 28);
      stored.set(key.toString('hex'), Buffer.alloc(32, 7));
    }
    const big = next() < 0.2;
    steps.push({
      step: {
        pc: Math.floor(next() * 30_000),
        op,
        opName,
        gas: BigInt(Math.floor(next() * (big ? 2 ** 45 : 3_000_000))),
        gasCost: BigInt([0, 3, 9_999, 99_999][Math.floor(next() * 4)]!),
        refund: next() < 0.2 ? BigInt(Math.floor(next() * 50_000)) : 0n,
        depth: 1 + Math.floor(next() * 3),
        stack,
        memory,
        address: new Uint8Array(20).fill(Math.floor(next() * 3)),
        returnData: next() < 0.3 ? Uint8Array.from({ length: Math.floor(next() * 40) }, () => 255) : new Uint8Array(0),
        state,
      },
      forwarded: op === 0xf1 || op === 0xfa ? BigInt(Math.floor(next() * 10 ** Math.floor(next() * 9))) : undefined,
      error: next() < 0.05 ? (next() < 0.5 ? 'out of gas' : 'fehlgeschlagen: ü "quoted" \n') : undefined,
    });
  }
  return steps;
}

/** Runs the script through a struct logger as the hook layer would: each step awaited, then its amendments. */
async function run(
  make: (budget: TraceBudget) => StructLogger | StructLogText,
  steps: readonly Scripted[],
): Promise<{ text: string; budget: number }> {
  const budget = new TraceBudget(0);
  const logger = make(budget);
  for (const { step, forwarded, error } of steps) {
    await logger.step(step);
    if (forwarded !== undefined) logger.callGas(forwarded);
    if (error !== undefined) logger.exit({ error, reverted: false });
  }
  logger.txEnd({ gasUsed: 21_000n, failed: false, returnValue: Uint8Array.of(1, 2), state: steps[0]!.step.state });
  const result = logger.result();
  return { text: 'text' in result ? result.text : JSON.stringify(result), budget: budget.bytes };
}

const CONFIGS: Readonly<Record<string, StructLoggerConfig>> = {
  default: {},
  'memory and return data': { enableMemory: true, enableReturnData: true },
  'no stack, no storage': { disableStack: true, disableStorage: true },
  'limit 50': { limit: 50, enableMemory: true },
};

describe('StructLogText', () => {
  for (const [name, config] of Object.entries(CONFIGS)) {
    it(`${name}: the object logger's JSON and budget, over random steps`, async () => {
      for (let seed = 1; seed <= 12; seed++) {
        const steps = script(seed, 300);
        const reference = await run((b) => new StructLogger(config, 0, b), steps);
        const text = await run((b) => new StructLogText(config, 0, b), steps);
        expect(text.text, `seed ${seed}`).toBe(reference.text);
        expect(text.budget, `seed ${seed}`).toBe(reference.budget);
      }
    });
  }
});

describe('putUint / putHexUint', () => {
  it('write what String and toString(16) give, across the widths they treat apart', () => {
    const buf = Buffer.alloc(32);
    const values = [
      0,
      9,
      10,
      99,
      100,
      101,
      909,
      1000,
      10_010,
      978_123,
      2 ** 31 - 1,
      2 ** 31,
      2 ** 32 - 1,
      2 ** 32,
      2 ** 32 + 5,
      2 ** 40 + 1,
      2 ** 53 - 1,
    ];
    const next = random(7);
    for (let i = 0; i < 2000; i++) values.push(Math.floor(next() * 2 ** Math.floor(next() * 54)));
    for (const v of values) {
      expect(buf.toString('latin1', 0, putUint(buf, 0, v))).toBe(String(v));
      expect(buf.toString('latin1', 0, putHexUint(buf, 0, v))).toBe(v.toString(16));
    }
  });
});

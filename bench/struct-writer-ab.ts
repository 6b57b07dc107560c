/**
 * `npx tsx bench/struct-writer-ab.ts <checkout B> [rounds=12]`: the struct logger's JSON-text writer alone
 * (trace/struct-log-text.ts, no EVM, no transport) of this checkout (A) and of checkout B, in one process, taking turns
 * 300 traces at a time: a load-proof A/B of the writer, which separate runs on a shared machine are not. The steps are
 * made up to look like bench/trace.ts's countdown (997 opcodes, a stack of one to three small words whose bottom word
 * stays, gas in the high hundred thousands); both writers must give the same bytes. Prints CPU µs per trace (median).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TraceBudget } from '../src/chain/trace/budget.js';
import { StructLogText } from '../src/chain/trace/struct-log-text.js';

const [dirB, roundsArg] = process.argv.slice(2);
if (dirB === undefined) throw new Error('usage: struct-writer-ab.ts <checkout B> [rounds]');
const rounds = Number(roundsArg ?? 12);
const fromB = (path: string) => import(pathToFileURL(resolve(dirB, path)).href);
const writerB = (await fromB('src/chain/trace/struct-log-text.ts')).StructLogText as typeof StructLogText;
const budgetB = (await fromB('src/chain/trace/budget.ts')).TraceBudget as typeof TraceBudget;

const names: Record<number, string> = { 0x5b: 'JUMPDEST', 0x80: 'DUP1', 0x15: 'ISZERO', 0x60: 'PUSH1', 0x57: 'JUMPI' };
const names2: Record<number, string> = { 0x03: 'SUB', 0x56: 'JUMP', 0x90: 'SWAP1' };
const loop = [0x5b, 0x80, 0x15, 0x60, 0x57, 0x60, 0x90, 0x03, 0x60, 0x56];
const steps: object[] = [];
let gas = 978_000n;
const bottom = 0x8en;
for (let i = 0; i < 997; i++) {
  const op = loop[i % loop.length]!;
  const stack = [bottom, BigInt(i), BigInt(3 * i)].slice(0, 1 + (i % 3));
  steps.push({
    pc: i % 20,
    op,
    opName: names[op] ?? names2[op]!,
    gas,
    gasCost: op === 0x57 ? 10n : 3n,
    refund: 0n,
    depth: 1,
    stack,
    stackStore: stack,
    stackLength: stack.length,
    memory: new Uint8Array(0),
    address: new Uint8Array(20),
    returnData: new Uint8Array(0),
  });
  gas -= op === 0x57 ? 10n : 3n;
}

function trace(Writer: typeof StructLogText, Budget: typeof TraceBudget, text = false): string {
  const writer = new Writer({ disableStorage: true }, 0, new Budget(0));
  for (const s of steps) writer.step(s as Parameters<StructLogText['step']>[0]);
  writer.txEnd({ gasUsed: 21_000n, failed: false, returnValue: new Uint8Array(0) } as Parameters<
    StructLogText['txEnd']
  >[0]);
  const { pieces, release } = writer.result();
  const answer = text ? Buffer.concat(pieces).toString('latin1') : '';
  release();
  return answer;
}

if (trace(StructLogText, TraceBudget, true) !== trace(writerB, budgetB, true)) throw new Error('the answers differ');
const PER_TURN = 300;
const cpu = { A: [] as number[], B: [] as number[] };
for (let round = 0; round < rounds; round++) {
  for (const [side, Writer, Budget] of [
    ['A', StructLogText, TraceBudget],
    ['B', writerB, budgetB],
  ] as const) {
    const before = process.cpuUsage();
    for (let i = 0; i < PER_TURN; i++) trace(Writer, Budget);
    const used = process.cpuUsage(before);
    if (round >= 2) cpu[side].push((used.user + used.system) / PER_TURN); // the first rounds warm the JIT up
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
process.stdout.write(
  `struct-log writer, CPU µs per 997-step trace (median of ${rounds - 2} turns): A ${median(cpu.A).toFixed(0)}, B ${median(cpu.B).toFixed(0)}\n`,
);

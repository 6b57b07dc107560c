/**
 * `npx tsx bench/step-loop.ts [checkout=.] [seconds=10] [rounds=200]`: CPU nanoseconds per EVM step of the lean
 * interpreter (src/chain/exec/sync-step.ts) of a checkout, in process: a call VM's EVM (its lean opcodes) runs a
 * countdown loop of fixed-gas steps (JUMPDEST PUSH1 SWAP1 SUB DUP1 PUSH1 JUMPI, `rounds` times) as an eth_call, and
 * with a frames-only tracer's op probe set (a callTracer's: before CALL-family opcodes only). Run it against two
 * checkouts in turns (`for d in A B; do …; done`) for an A/B of the step loop without HTTP, JSON or state reads.
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createEVM } from '@ethereumjs/evm';
import { createAddressFromString } from '@ethereumjs/util';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const [dirArg, secondsArg, roundsArg] = process.argv.slice(2);
const dir = resolve(dirArg ?? '.');
const seconds = Number(secondsArg ?? 10);
const rounds = Number(roundsArg ?? 200);
const load = (file: string) => import(pathToFileURL(`${dir}/src/chain/exec/${file}`).href);
const { callDeadlineInstalled } = await load('call-deadline.ts');
const { leanOpcodes } = await load('call-opcodes.ts');
const { setOpProbe, clearOpProbe } = await load('op-probe.ts');
const { stepCounts } = await load('sync-step.ts');
if (!(await callDeadlineInstalled)) throw new Error('the interpreter wrapper is not installed');

const to = createAddressFromString('0x000000000000000000000000000000000000c0a1');
// PUSH2 rounds, JUMPDEST(3), PUSH1 1, SWAP1, SUB, DUP1, PUSH1 3, JUMPI, STOP
const code = Uint8Array.from([0x61, rounds >> 8, rounds & 255, 0x5b, 0x60, 1, 0x90, 0x03, 0x80, 0x60, 3, 0x57, 0x00]);
const evm = await createEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Shanghai }) });
await evm.stateManager.putCode(to, code);
if (!leanOpcodes(evm)) throw new Error('no lean opcodes');
const ops = new Uint8Array(256);
for (const op of [0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa, 0xff]) ops[op] = 1;
const probe = { ops, countdown: 1 << 30, before: () => undefined };

async function measure(name: string, probed: boolean): Promise<void> {
  if (probed) setOpProbe(evm, probe);
  const steps0 = stepCounts();
  const cpu0 = process.cpuUsage();
  const until = performance.now() + seconds * 500;
  let calls = 0;
  while (performance.now() < until) {
    const { execResult } = await evm.runCall({ to, gasLimit: 10_000_000n });
    if (execResult.exceptionError !== undefined) throw new Error(String(execResult.exceptionError.error));
    calls++;
  }
  const cpu = process.cpuUsage(cpu0);
  const steps1 = stepCounts();
  if (probed) clearOpProbe(evm);
  const steps = steps1.inline - steps0.inline + (steps1.library - steps0.library);
  const ns = ((cpu.user + cpu.system) * 1000) / (calls * (rounds * 7 + 2));
  console.log(`${name}: ${calls} calls, ${ns.toFixed(1)} ns CPU per step (${steps} steps counted)`);
}

for (let i = 0; i < 2; i++) await measure(i === 0 ? 'warm-up' : 'eth_call', false);
await measure('op probe', true);

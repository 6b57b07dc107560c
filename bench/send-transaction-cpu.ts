/**
 * `npx tsx bench/send-transaction-cpu.ts` (a diagnostic, not part of `npm run bench`): the node's CPU per ether
 * transfer sent with eth_sendTransaction WITHOUT `gas` (the node signs with a dev account and fills the defaults:
 * nonce, gas price and gas, the last by eth_estimateGas's rules) and followed by polling its receipt, one after
 * another on an instant-seal node: what a wallet-less test suite's `sendTransaction({ to, value })` costs.
 *
 * Knobs: TARGETS (svc-node; `svc-node:base` = the checkout at BENCH_BASE_DIR, built, for an A/B on the same load;
 * hardhat), PROFILE=<dir> runs svc-node under `node --cpu-prof` into that directory, N transfers per round (200), ROUNDS (4, alternating the targets), WARMUP (50 per target).
 * CPU = the node's process tree (utime + stime from /proc) over the round, per transfer.
 */
import { readFileSync } from 'node:fs';
import { makeWorkDir, startTarget, type RunningTarget } from './compare/launcher.js';
import { processTree } from './compare/process-tree.js';
import { allTargets, type Target } from './compare/targets.js';

const ids = (process.env.TARGETS ?? 'svc-node').split(',');
const N = Number(process.env.N ?? 200);
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const WARMUP = Number(process.env.WARMUP ?? 50);
const RECIPIENT = '0x7e57000000000000000000000000000000000001'; // outside the precompile range (below 2^16)

const cpuMs = (pid: number) =>
  processTree(pid).reduce((sum, p) => {
    try {
      const rest = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return sum + (Number(rest[11]) + Number(rest[12])) * 10;
    } catch {
      return sum;
    }
  }, 0);

function variant(id: string): Target {
  const [base, mode] = id.split(':') as [string, string | undefined];
  const target = allTargets.find((t) => t.id === base);
  if (target === undefined) throw new Error(`unknown target ${base}`);
  const baseDir = mode === 'base' ? process.env.BENCH_BASE_DIR : undefined;
  if (mode === 'base' && baseDir === undefined) throw new Error('svc-node:base needs BENCH_BASE_DIR=<checkout>');
  const prof =
    process.env.PROFILE && base === 'svc-node' ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROFILE}`] : [];
  return {
    ...target,
    launch: (...a) => {
      const plan = target.launch(...a);
      return { ...plan, args: [...prof, ...plan.args], ...(baseDir !== undefined ? { cwd: baseDir } : {}) };
    },
  };
}

async function sendAndMine(node: RunningTarget, from: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const hash = await node.rpc.call<string>('eth_sendTransaction', [{ from, to: RECIPIENT, value: '0x1' }]);
    while ((await node.rpc.call<unknown>('eth_getTransactionReceipt', [hash])) === null);
  }
}

const workDir = makeWorkDir();
const nodes: { id: string; node: RunningTarget; from: string; cpu: number[] }[] = [];
try {
  for (const id of ids) {
    const node = await startTarget(variant(id), workDir);
    const [from] = await node.rpc.call<string[]>('eth_accounts');
    nodes.push({ id, node, from: from!, cpu: [] });
    await sendAndMine(node, from!, WARMUP);
  }
  for (let r = 0; r < ROUNDS; r++) {
    for (const x of r % 2 ? [...nodes].reverse() : nodes) {
      const c0 = cpuMs(x.node.pid);
      const t0 = performance.now();
      await sendAndMine(x.node, x.from, N);
      const wall = (performance.now() - t0) / N;
      x.cpu.push((cpuMs(x.node.pid) - c0) / N);
      console.log(`round ${r} ${x.id}: ${wall.toFixed(2)} ms wall, ${x.cpu.at(-1)!.toFixed(2)} ms CPU per transfer`);
    }
  }
  for (const x of nodes) {
    const sorted = [...x.cpu].sort((a, b) => a - b);
    console.log(`${x.id}: median CPU ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} ms per transfer`);
  }
} finally {
  for (const x of nodes) await x.node.stop();
}

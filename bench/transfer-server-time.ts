/**
 * `npx tsx bench/transfer-server-time.ts` (a diagnostic, not part of `npm run bench`): the server's own time per
 * sent-and-mined ERC-20 transfer, the peer report's sequential row minus its client-ceiling row (send + mined
 * count, minus chainId + mined count), measured round by round in alternation across the nodes so machine load hits
 * all alike; and the server's CPU time per transfer (its process tree's utime + stime from /proc, minus the same for
 * the ceiling calls), which a busy machine inflates far less than wall time.
 *
 * Knobs: TARGETS (default svc-node,svc-node:durable,anvil,hardhat; `:durable` = svc-node with db.write-behind off),
 * N transfers per round (200), ROUNDS (5), PROFILE=<dir> runs svc-node under `node --cpu-prof` into that directory.
 */
import { readFileSync } from 'node:fs';
import { prepareFixture, RECIPIENT, type Fixture } from './compare/fixture.js';
import { makeWorkDir, startTarget, type RunningTarget } from './compare/launcher.js';
import { processTree } from './compare/process-tree.js';
import { allTargets, type Target } from './compare/targets.js';

const ids = (process.env.TARGETS ?? 'svc-node,svc-node:durable,anvil,hardhat').split(',');
const N = Number(process.env.N ?? 200);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const workDir = makeWorkDir();
const ticks = 100; // USER_HZ
const cpuMs = (pid: number) =>
  processTree(pid).reduce((sum, p) => {
    try {
      const f = readFileSync(`/proc/${p}/stat`, 'utf8');
      const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
      return sum + ((Number(rest[11]) + Number(rest[12])) * 1000) / ticks;
    } catch {
      return sum;
    }
  }, 0);

function variant(id: string): Target {
  const [base, mode] = id.split(':') as [string, string | undefined];
  let target = allTargets.find((t) => t.id === base)!;
  const extraEnv = mode === 'durable' ? { SVC_NODE_DB_WRITE_BEHIND: 'false' } : {};
  const prof =
    process.env.PROFILE && base === 'svc-node' ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.PROFILE}`] : [];
  const launch = target.launch;
  target = {
    ...target,
    launch: (...a) => {
      const plan = launch(...a);
      return { ...plan, args: [...prof, ...plan.args], env: { ...plan.env, ...extraEnv } };
    },
  };
  return target;
}

const nodes: Array<{ id: string; node: RunningTarget; f: Fixture; wall: number[]; cpu: number[] }> = [];
try {
  for (const id of ids) {
    const node = await startTarget(variant(id), workDir);
    nodes.push({ id, node, f: await prepareFixture(node), wall: [], cpu: [] });
  }
  const seq = async (f: Fixture, n: number) => {
    const s = f.sender;
    const raws: string[] = [];
    for (let i = 0; i < n; i++) raws.push(await s.signTokenTransfer(f.token, RECIPIENT, 1n));
    const first = s.nextNonce - n;
    const t = performance.now();
    for (let i = 0; i < n; i++) {
      await s.send(raws[i]!);
      await s.waitMinedCount(first + i + 1, 60_000, 1);
    }
    return (performance.now() - t) / n;
  };
  const ceil = async (f: Fixture, n: number) => {
    const t = performance.now();
    for (let i = 0; i < n; i++) {
      await f.sender.rpc.call('eth_chainId');
      await f.sender.minedCount();
    }
    return (performance.now() - t) / n;
  };
  for (const x of nodes) {
    await seq(x.f, 50);
    await ceil(x.f, 50);
  }
  for (let r = 0; r < ROUNDS; r++) {
    for (const x of r % 2 ? [...nodes].reverse() : nodes) {
      const c0 = cpuMs(x.node.pid);
      const a = await seq(x.f, N);
      const c1 = cpuMs(x.node.pid);
      const b = await ceil(x.f, N);
      const c2 = cpuMs(x.node.pid);
      const cpu = (c1 - c0 - (c2 - c1)) / N;
      x.wall.push(a - b);
      x.cpu.push(cpu);
      console.log(
        `${x.id.padEnd(18)} round ${r}: transfer ${a.toFixed(3)} ms, ceiling ${b.toFixed(3)} ms, ` +
          `server ${(a - b).toFixed(3)} ms; server CPU ${cpu.toFixed(3)} ms`,
      );
    }
  }
  const med = (xs: number[]) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)]!;
  for (const x of nodes)
    console.log(
      `${x.id.padEnd(18)} median server time per transfer ${med(x.wall).toFixed(3)} ms ` +
        `(runs ${x.wall.map((v) => v.toFixed(2)).join(', ')}); CPU ${med(x.cpu).toFixed(3)} ms`,
    );
} finally {
  for (const x of nodes) await x.node.stop();
}

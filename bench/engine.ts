/**
 * Engine micro-bench: 1,000 signed value transfers in one block, executed and stored.
 *   npx tsx bench/engine.ts [transfers]
 * "assemble+store" is the miner's path (execute once, import reuses it); "import" re-executes a
 * received block with full validation (as from a peer) on a second chain.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { mine, openDevChain, signedTx, tempDir } from '../test/chain/engine/fixtures.js';

// The machine is shared: CPU time of this process is reported beside wall time.
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
const rate = (wall: number, cpu: number) =>
  `${wall.toFixed(0)} ms wall (${Math.round((count * 1000) / wall)}/s), ${cpu.toFixed(0)} ms cpu (${Math.round((count * 1000) / cpu)}/s)`;
const count = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 3);
const a = tempDir('bench-a-');
const b = tempDir('bench-b-');
try {
  const miner = await openDevChain(a.dir);
  const follower = await openDevChain(b.dir);
  for (let round = 0; round < rounds; round++) {
    const nonce0 = BigInt(round * count);
    const txs = Array.from({ length: count }, (_, i) =>
      signedTx(miner, { from: 0, nonce: nonce0 + BigInt(i), to: randomBytes(20), value: 1n }),
    );
    let t = performance.now();
    let cpu = process.cpuUsage();
    const { block, assembled } = await mine(miner, txs);
    const assembleMs = performance.now() - t;
    const assembleCpu = cpuMs(process.cpuUsage(cpu));
    if (assembled.transactions.length !== count)
      throw new Error(`only ${assembled.transactions.length} included: ${assembled.rejected[0]?.reason}`);
    const rlp = block.serialize();
    t = performance.now();
    cpu = process.cpuUsage();
    const received = follower.decodeBlock(rlp);
    const r = await follower.importBlock(received);
    const importMs = performance.now() - t;
    const importCpu = cpuMs(process.cpuUsage(cpu));
    if (r.status !== 'head') throw new Error('follower did not take the block');
    console.log(
      `round ${round}: ${count} transfers — assemble+store ${rate(assembleMs, assembleCpu)}; import with validation ${rate(importMs, importCpu)}`,
    );
  }
  await miner.close();
  await follower.close();
} finally {
  a.remove();
  b.remove();
}

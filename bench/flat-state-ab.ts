/**
 * `npx tsx bench/flat-state-ab.ts` (a diagnostic, not part of `npm run bench`): the dev miner's block assembly on
 * the flat state (exec/flat-state.ts) against the state manager it replaced, in one process, blocks of one ERC-20
 * transfer each, the two chains taking turns (ROUNDS turns of BLOCKS blocks each), so a busy machine's drift
 * weighs on both alike. Printed per block: assembly wall time (`assemble`, execution and roots), the whole block
 * (assemble + seal + import) and this process's CPU (all threads). WARMUP blocks per chain first.
 */
import { readFileSync } from 'node:fs';
import { hexToBytes } from '@ethereumjs/util';
import { Interface } from 'ethers';
import type { Blockchain } from '../src/chain/blockchain/blockchain.js';
import { mine, openDevChain, signedTx, tempDir } from '../test/chain/engine/fixtures.js';

const ROUNDS = Number(process.env.ROUNDS ?? 20);
const BLOCKS = Number(process.env.BLOCKS ?? 50);
const WARMUP = Number(process.env.WARMUP ?? 500);

const artifact = JSON.parse(readFileSync(new URL('./contracts/BenchToken.json', import.meta.url), 'utf8'));
const iface = new Interface(artifact.abi);
const deployData = hexToBytes((artifact.bytecode + iface.encodeDeploy([10n ** 27n]).slice(2)) as `0x${string}`);
const transferData = hexToBytes(
  iface.encodeFunctionData('transfer', ['0x90F79bf6EB2c4f870365E785982E1f101E93b906', 1n]) as `0x${string}`,
);

interface Side {
  readonly name: string;
  readonly chain: Blockchain;
  readonly token: Uint8Array;
  nonce: bigint;
  blocks: number;
  assembleMs: number;
  blockMs: number;
  cpuMs: number;
}

async function open(name: string, flatState: boolean, dir: string): Promise<Side> {
  const chain = await openDevChain(dir, { flatState });
  const { assembled } = await mine(chain, [
    signedTx(chain, { from: 1, nonce: 0n, data: deployData, gasLimit: 1_500_000n }),
  ]);
  const token = assembled.receipts[0]!.contractAddress!;
  return { name, chain, token, nonce: 1n, blocks: 0, assembleMs: 0, blockMs: 0, cpuMs: 0 };
}

async function run(side: Side, blocks: number, timed: boolean): Promise<void> {
  const { chain } = side;
  const assemble = chain.assemble.bind(chain);
  let assembleMs = 0;
  chain.assemble = async (opts) => {
    const t = performance.now();
    const out = await assemble(opts);
    assembleMs += performance.now() - t;
    return out;
  };
  const txs = Array.from({ length: blocks }, () =>
    signedTx(chain, { from: 1, nonce: side.nonce++, to: side.token, data: transferData, gasLimit: 80_000n }),
  );
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (const tx of txs) await mine(chain, [tx]);
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  chain.assemble = assemble;
  if (!timed) return;
  side.blocks += blocks;
  side.assembleMs += assembleMs;
  side.blockMs += wall;
  side.cpuMs += (cpu.user + cpu.system) / 1000;
}

const dirs = [tempDir('flat-ab-a-'), tempDir('flat-ab-b-')];
const sides = [await open('flat state', true, dirs[0]!.dir), await open('state manager', false, dirs[1]!.dir)];
for (const side of sides) await run(side, WARMUP, false);
for (let r = 0; r < ROUNDS; r++) {
  // Alternate which goes first, so neither always follows the other's garbage.
  for (const side of r % 2 === 0 ? sides : [...sides].reverse()) await run(side, BLOCKS, true);
}
for (const s of sides) {
  const per = (x: number) => (x / s.blocks).toFixed(3);
  console.log(
    `${s.name.padEnd(14)} assemble ${per(s.assembleMs)} ms, block ${per(s.blockMs)} ms, CPU ${per(s.cpuMs)} ms ` +
      `per block (${s.blocks} blocks)`,
  );
}
const roots = await Promise.all(sides.map((s) => s.chain.getHead().header.stateRoot));
console.log(`same head state root: ${Buffer.compare(roots[0]!, roots[1]!) === 0}`);
for (const s of sides) await s.chain.close();
for (const d of dirs) d.remove();

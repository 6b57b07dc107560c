/**
 * eth_call of an ERC-20 balanceOf (bench/contracts/BenchToken) in one process: `chain.call('latest', …)`, the
 * engine path the eth_call handler takes, at concurrency 1 and 16, calls per second (median of the runs).
 *   npx tsx bench/eth-call.ts [--seconds 2] [--runs 3] [--timeout-ms 5000]
 * Each call carries a deadline `--timeout-ms` ahead, as the handler gives it with the default
 * `network.rpc.call.timeout` (the EVM then checks the clock, src/chain/exec/call-deadline.ts); 0 = none.
 * Over JSON-RPC the same call is the peer comparison's `eth_call` rows (`npm run bench -- --peers`).
 * HEAP=<file> samples the allocations of the timed runs (SURVIVORS=1: only what outlived scavenges) and prints
 * the top sites (bench/heap-sampling.ts).
 */
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Interface } from 'ethers';
import { hexToBytes } from '@ethereumjs/util';
import { ChainEngine } from '../src/chain/engine/engine.js';
import { addresses, signedTx } from '../test/chain/engine/fixtures.js';
import { startHeapSampling } from './heap-sampling.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '2' },
    runs: { type: 'string', default: '3' },
    'timeout-ms': { type: 'string', default: '5000' },
  },
});
const timeoutMs = Number(values['timeout-ms']);
const artifact = JSON.parse(readFileSync(new URL('./contracts/BenchToken.json', import.meta.url), 'utf8')) as {
  abi: string[];
  bytecode: string;
};
const token = new Interface(artifact.abi);

const dataDir = mkdtempSync(join(tmpdir(), 'eth-call-'));
const engine = await ChainEngine.open({ dataDir, network: 'dev', seal: 'instant' });
try {
  const deploy = signedTx(engine.chain, {
    from: 0,
    nonce: 0n,
    data: hexToBytes((artifact.bytecode + token.encodeDeploy([10n ** 27n]).slice(2)) as `0x${string}`),
    gasLimit: 3_000_000n,
  });
  await engine.pool.add(deploy);
  const [mined] = await engine.miner.mineBlocks(1);
  const receipt = (await engine.chain.getReceipts(mined!.block.hash()))![0]!;
  const tokenAddress = receipt.contractAddress!;
  if (receipt.status !== 1) throw new Error('the token deployment failed');
  const data = hexToBytes(
    token.encodeFunctionData('balanceOf', [`0x${Buffer.from(addresses[0]!).toString('hex')}`]) as `0x${string}`,
  );
  let calls = 0;
  const call = async () => {
    calls++;
    const deadline = timeoutMs > 0 ? { deadline: { at: performance.now() + timeoutMs, limitMs: timeoutMs } } : {};
    const r = await engine.chain.call('latest', { to: tokenAddress, data, ...deadline });
    if (r === undefined || r.error !== undefined || r.returnData.length !== 32 || r.returnData.every((b) => b === 0))
      throw new Error(`balanceOf failed: ${r?.error}`);
  };
  for (let i = 0; i < 200; i++) await call();
  const heap = process.env.HEAP ? await startHeapSampling(1024, process.env.SURVIVORS === '1') : undefined;
  const sampledFrom = calls;
  for (const concurrency of [1, 16]) {
    const rates: number[] = [];
    const cpuRates: number[] = [];
    for (let run = 0; run < Number(values.runs); run++) {
      let done = 0;
      const cpu = process.cpuUsage();
      const end = performance.now() + Number(values.seconds) * 1000;
      const began = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (performance.now() < end) {
            await call();
            done++;
          }
        }),
      );
      rates.push(done / ((performance.now() - began) / 1000));
      const used = process.cpuUsage(cpu);
      cpuRates.push(done / ((used.user + used.system) / 1e6));
    }
    // The machine is shared: calls per CPU-second of this process is the steadier figure.
    const median = (xs: number[]) => Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!);
    console.log(
      `concurrency ${concurrency}: ${median(rates)} calls/s wall, ${median(cpuRates)} per CPU-second (runs: ${rates.map(Math.round).join(', ')})`,
    );
  }
  if (heap !== undefined) {
    const { totalBytes, sites } = await heap.stop(process.env.HEAP!, 40);
    const n = calls - sampledFrom;
    console.log(
      `sampled ${(totalBytes / 1e6).toFixed(1)} MB over ${n} calls: ${Math.round(totalBytes / n)} B per call`,
    );
    for (const { site, bytes } of sites) console.log(`${String(Math.round(bytes / n)).padStart(7)} B/call  ${site}`);
  }
} finally {
  await engine.close();
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * eth_getBalance and eth_call rates on the bench's head state, in process, on the paths their handlers take
 * (`chain.stateAt('latest')` + `getBalance`, `chain.call('latest', …)`): random accounts of the allocation, and a
 * storage contract's SLOAD of a random slot. Concurrency 1 and 16; requests per second over `seconds` each.
 */
import { performance } from 'node:perf_hooks';
import type { ChainEngine } from '../src/chain/engine/engine.js';
import { type StateSizes, accountAddress, contractAddress, contractCount, rng, slotKey } from './state-size-chain.js';

export interface ReadRate {
  readonly method: string;
  readonly concurrency: number;
  readonly requests: number;
  readonly perSecond: number;
  readonly cpuPerRequestMs: number;
}

export async function readRates(engine: ChainEngine, sizes: StateSizes, seconds: number): Promise<ReadRate[]> {
  const next = rng(16);
  const pick = (n: number) => Math.floor(next() * n);
  const contracts = contractCount(sizes);
  const getBalance = async () => {
    const state = await engine.chain.stateAt('latest');
    const balance = await state!.getBalance(accountAddress(pick(sizes.accounts)));
    if (balance === 0n) throw new Error('an allocated account reads a zero balance');
  };
  const call = async () => {
    const c = pick(contracts);
    const inContract = Math.min(sizes.slotsPerContract, sizes.slots - c * sizes.slotsPerContract);
    const r = await engine.chain.call('latest', { to: contractAddress(c), data: slotKey(pick(inContract)) });
    if (r === undefined || r.error !== undefined || r.returnData.every((b) => b === 0))
      throw new Error(`eth_call read no slot: ${r?.error}`);
  };
  const rates: ReadRate[] = [];
  for (const [method, run] of [
    ['eth_getBalance', getBalance],
    ['eth_call', call],
  ] as const) {
    // A run without accounts or without slots (to split the bytes between them) has nothing of that kind to read.
    if (method === 'eth_getBalance' ? sizes.accounts === 0 : contracts === 0) continue;
    for (const concurrency of [1, 16]) {
      const until = performance.now() + seconds * 1000;
      const cpu = process.cpuUsage();
      const started = performance.now();
      let requests = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (performance.now() < until) {
            await run();
            requests++;
          }
        }),
      );
      const wall = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      const rate = {
        method,
        concurrency,
        requests,
        perSecond: requests / wall,
        cpuPerRequestMs: (used.user + used.system) / 1000 / requests,
      };
      process.stdout.write(
        `${method} ×${concurrency}: ${rate.perSecond.toFixed(0)} req/s (${requests} in ${wall.toFixed(1)} s)\n`,
      );
      rates.push(rate);
    }
  }
  return rates;
}

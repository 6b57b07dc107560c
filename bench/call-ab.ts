/**
 * CPU per eth_call of an ERC-20 balanceOf (bench/contracts/BenchToken), A/B in one process: call executors built
 * with different options (exec/call.ts) take turns in blocks of calls, so a shared, loaded machine weighs on
 * both alike. Prints the median CPU microseconds per call (process CPU: the collector's threads included).
 *   npx tsx bench/call-ab.ts [--blocks 20] [--calls 500] [--concurrency 1]
 * Variants: `library` (the library's frames), `lean` (the node's default), `lean+console` (the default with the dev
 * chain's console.log watch on: exec/console-watch.ts; the token never calls the console address, so this is the
 * watch's cost to every other call).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { BlockHeader } from '@ethereumjs/block';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import { hexToBytes } from '@ethereumjs/util';
import { Interface } from 'ethers';
import { ChainEngine } from '../src/chain/engine/engine.js';
import { CallExecutor, type CallExecutorOptions } from '../src/chain/exec/call.js';
import type { TrieNodeStore } from '../src/chain/state/trie-db.js';
import { addresses, signedTx } from '../test/chain/engine/fixtures.js';

const { values } = parseArgs({
  options: {
    blocks: { type: 'string', default: '20' },
    calls: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '1' },
  },
});
const variants: Record<string, CallExecutorOptions & { console?: true }> = {
  library: { leanFrames: false },
  lean: {},
  'lean+console': { console: true },
};
const artifact = JSON.parse(readFileSync(new URL('./contracts/BenchToken.json', import.meta.url), 'utf8')) as {
  abi: string[];
  bytecode: string;
};
const token = new Interface(artifact.abi);
const dataDir = mkdtempSync(join(tmpdir(), 'call-ab-'));
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
  const to = (await engine.chain.getReceipts(mined!.block.hash()))![0]!.contractAddress!;
  const data = hexToBytes(
    token.encodeFunctionData('balanceOf', [`0x${Buffer.from(addresses[0]!).toString('hex')}`]) as `0x${string}`,
  );
  const chain = engine.chain as unknown as {
    nodes: TrieNodeStore;
    view: { ancestorsOf(header: BlockHeader): EVMMockBlockchainInterface };
  };
  const head = engine.chain.getHead();
  const executors = Object.entries(variants).map(
    ([name, opts]) =>
      [
        name,
        opts.console === true ? { console: true as const } : {},
        new CallExecutor(
          {
            store: chain.nodes,
            common: engine.chain.commonAt(head.header.number),
            stateRoot: head.header.stateRoot,
            envBlock: head,
            ancestors: chain.view.ancestorsOf(head.header),
          },
          opts,
        ),
      ] as const,
  );
  const expected = await executors[0]![2].run({ to, data });
  const perCall = new Map<string, number[]>(executors.map(([name]) => [name, []]));
  const concurrency = Number(values.concurrency);
  const calls = Number(values.calls);
  for (let block = -1; block < Number(values.blocks); block++) {
    // Each block starts with the next variant: the one run after another's garbage pays for it otherwise.
    const turn = (block + 1) % executors.length;
    for (const [name, extra, executor] of [...executors.slice(turn), ...executors.slice(0, turn)]) {
      const cpu = process.cpuUsage();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          for (let i = 0; i < calls / concurrency; i++) {
            const r = await executor.run({ to, data, ...extra });
            if (r.gasUsed !== expected.gasUsed) throw new Error(`${name}: gas used ${r.gasUsed}`);
          }
        }),
      );
      const used = process.cpuUsage(cpu);
      if (block >= 0) perCall.get(name)!.push((used.user + used.system) / calls);
    }
  }
  for (const [name, xs] of perCall) {
    const sorted = [...xs].sort((a, b) => a - b);
    const q = (f: number) => sorted[Math.floor(f * (sorted.length - 1))]!.toFixed(0);
    console.log(`${name}: ${q(0.5)} µs CPU per call (quartiles ${q(0.25)}–${q(0.75)})`);
  }
} finally {
  await engine.close();
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * One pruning cycle (`--gcmode full`) on the biggest state built here in a few minutes: `--accounts` accounts set in
 * place on a dev chain, then `--blocks` empty blocks each preceded by an edit of `--churn` random accounts (each
 * edit leaves the old path nodes behind). Prints the cycle's figures: time (and the mark phase's), live and swept
 * nodes, the state table on disk before and after, and the longest turn of the event loop it took.
 *   npx tsx bench/prune-cycle.ts [--accounts 200000] [--blocks 300] [--churn 200] [--base DIR]
 * `--base DIR`: the built datadir is copied to DIR before the cycle; once DIR exists, later runs copy it back and
 * skip the build (the same state pruned again; bench/prune-rpc.ts starts a node on it).
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Account, Address } from '@ethereumjs/util';
import { Blockchain } from '../src/chain/blockchain/blockchain.js';
import { engineNetworkOf, etcEngineRules } from '../src/chain/engine/engine-adapters.js';
import { dev } from '../src/chain/networks/index.js';

const { values } = parseArgs({
  options: {
    accounts: { type: 'string', default: '200000' },
    blocks: { type: 'string', default: '300' },
    churn: { type: 'string', default: '200' },
    base: { type: 'string' },
  },
});
const accounts = Number(values.accounts);
const blocks = Number(values.blocks);
const churn = Number(values.churn);
const address = (i: number) => {
  const bytes = new Uint8Array(20);
  new DataView(bytes.buffer).setUint32(16, i);
  bytes[0] = 0xa0;
  return new Address(bytes);
};

const dir = mkdtempSync(join(tmpdir(), 'prune-bench-'));
const base = values.base;
const copied = base !== undefined && existsSync(base);
if (copied) cpSync(base, dir, { recursive: true });
const open = () =>
  Blockchain.open({
    dataDir: dir,
    network: engineNetworkOf(dev),
    rules: etcEngineRules(dev),
    noProof: true,
    retention: { mode: 'full', keepStates: 128, checkpointInterval: 128, checkpoints: 2 },
    pruning: { automatic: false },
  });
let chain = await open();
try {
  const t0 = performance.now();
  if (!copied) {
    await build();
    console.log(
      `built ${accounts} accounts and ${blocks} churned blocks in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    if (base !== undefined) {
      await chain.close();
      cpSync(dir, base, { recursive: true });
      chain = await open();
    }
  } else console.log(`copied ${base} (head ${chain.getHead().header.number})`);
  // The event loop's longest stall while the cycle runs, seen from outside it (a timer's lateness).
  let worstLagMs = 0;
  let expected = performance.now() + 5;
  const timer = setInterval(() => {
    worstLagMs = Math.max(worstLagMs, performance.now() - expected);
    expected = performance.now() + 5;
  }, 5);
  const f = (await chain.pruning!.prune())!;
  clearInterval(timer);
  console.log(`event loop: worst lateness of a 5 ms timer during the cycle ${worstLagMs.toFixed(1)} ms`);
  const MiB = (n: number) => (n / 2 ** 20).toFixed(1);
  console.log(
    `cycle: ${f.seconds.toFixed(2)} s (mark ${f.markSeconds.toFixed(2)} s), roots ${f.roots}, marked ${f.marked} ` +
      `(${MiB(f.liveBytes)} MiB live), scanned ${f.scanned}, swept ${f.swept}, state table on disk ` +
      `${MiB(f.diskBytesBefore)} -> ${MiB(f.diskBytesAfter)} MiB, longest slice ${f.longestSliceMs.toFixed(1)} ms ` +
      `(mark ${f.longestMarkSliceMs.toFixed(1)}, sweep ${f.longestSweepTurnMs.toFixed(1)})`,
  );
} finally {
  await chain.close();
  rmSync(dir, { recursive: true, force: true });
}

async function build(): Promise<void> {
  for (let from = 0; from < accounts; from += 20_000)
    await chain.editHeadState(async (state) => {
      for (let i = from; i < Math.min(accounts, from + 20_000); i++)
        await state.putAccount(address(i), new Account(1n, BigInt(i) + 1n));
    });
  for (let b = 0; b < blocks; b++) {
    await chain.editHeadState(async (state) => {
      for (let k = 0; k < churn; k++)
        await state.putAccount(address(Math.floor(Math.random() * accounts)), new Account(2n, BigInt(b * churn + k)));
    });
    await chain.extendHead({
      count: 1,
      collect: false,
      coinbase: new Uint8Array(20).fill(0xcb),
      seal: async (assembled) => assembled.seal(new Uint8Array(8), new Uint8Array(32)),
    });
  }
}
